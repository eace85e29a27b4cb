// Package mcpserver serves a task's attempts to an agent over the Model Context Protocol,
// with the tools Playwright MCP offers (the same names and argument shapes, so an agent
// prompted for Playwright MCP works unchanged) and two of the task's own: task_intent and
// task_done. Every tool that acts on the page is a proposal through the harness (see
// backend/session): classified, admitted, reviewed, approved through Observatory's own
// approval channel, carried out and recorded as a step; the call returns once its step is
// recorded. The tools that only read (snapshot, screenshot, tabs, console, network, wait)
// are not steps: they run on the same page while the executor waits for the next action,
// and change nothing on it. task_done records the agent's claim and asks the completion
// gate, which decides.
package mcpserver
