// Package mcpserver serves a task's attempts to an agent over the Model Context Protocol,
// as a superset of Playwright MCP: its default tools with their names and argument schemas,
// replies in its sections (the code that ran, the page, the snapshot, with Observatory's
// harness lines apart and page content fenced as data), so that a client written for
// Playwright MCP works unchanged, and two of the task's own: task_intent and task_done.
//
// Every tool that acts on the page, an agent's own script included, is a proposal through
// the harness (see backend/session): classified, admitted, reviewed, approved through
// Observatory's own approval channel, carried out and recorded as a step; the call returns
// once its step is recorded. A failed or refused call is a tool error with the page kept:
// the attempt goes on. The tools that only read (snapshot, find, screenshot, tabs, console,
// network, wait) are not steps: they run on the same page while the executor waits for the
// next action, and change nothing on it. Drag, resize, opening, selecting and closing tabs,
// closing the browser (the attempt goes on, on a fresh tab) and answering a JavaScript dialog
// are steps too; a dialog an action opens stays open as Playwright MCP's modal state, and
// other tools are refused until it is answered. The tools whose effect an attempt cannot guard
// or record (media emulation, dropping files or data, Playwright code) answer why, and act on
// nothing. task_done records the agent's claim and asks the completion gate, which decides.
package mcpserver
