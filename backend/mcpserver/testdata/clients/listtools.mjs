// Lists an MCP server's tools as JSON on standard output: the reference tool-list test's
// client. Usage: node listtools.mjs COMMAND [ARG...]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: 'observatory-tool-list', version: '1' });
await client.connect(new StdioClientTransport({ command, args, stderr: 'inherit' }));
const { tools } = await client.listTools();
process.stdout.write(JSON.stringify(tools));
await client.close();
