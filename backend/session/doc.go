// Package session lets an agent outside Observatory drive attempts of a task through the
// harness, one action at a time. A Session is a run's runner.Sequence and the planner of
// each of its attempts: each action the agent asks for is a proposal the attempt's executor
// takes from Next, decides, carries out and records like any planner's, and the call returns
// once its step is recorded. The agent's first action starts an attempt; its done (with its
// claim), a budget or the time limit ends it; its next action starts the next. Front doors
// (the MCP server, an outside agent process) share it; only what the agent says differs.
package session
