package mcpserver

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"observatory/backend/agent"
)

// answerAfter answers approve after its delay.
type answerAfter time.Duration

func (d answerAfter) Approve(ctx context.Context, _ agent.ApprovalRequest) (agent.ApprovalAnswer, error) {
	select {
	case <-time.After(time.Duration(d)):
		return agent.AnswerApprove, nil
	case <-ctx.Done():
		return agent.AnswerNone, ctx.Err()
	}
}

// TestWaitingTellsACallThatWaitsForAPerson: a tool call that asked for progress is told once
// its approval has waited waitFirst, and a call answered at once is told nothing.
func TestWaitingTellsACallThatWaitsForAPerson(t *testing.T) {
	w := &Waiting{}
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "ask"}, func(ctx context.Context, req *mcp.CallToolRequest, in struct {
		DelayMS int `json:"delay_ms"`
	}) (*mcp.CallToolResult, any, error) {
		defer w.during(ctx, req)()
		a := w.Approvals(func(agent.AttemptSpec) agent.Approver {
			return answerAfter(time.Duration(in.DelayMS) * time.Millisecond)
		})(agent.AttemptSpec{})
		got, err := agent.AnswerOf(ctx, a, agent.ApprovalRequest{Action: "Send the message"})
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(got.Answer)}}}, nil, err
	})
	var mu sync.Mutex
	var told []string
	client := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			told = append(told, req.Params.Message)
			mu.Unlock()
		}})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(delay time.Duration) []string {
		mu.Lock()
		told = nil
		mu.Unlock()
		p := &mcp.CallToolParams{Name: "ask", Arguments: map[string]any{"delay_ms": delay.Milliseconds()}}
		p.SetProgressToken("t")
		res, err := cs.CallTool(ctx, p)
		if err != nil || res.IsError {
			t.Fatalf("call: %v %+v", err, res)
		}
		// A notification sent before the answer may be handled after it: wait a moment for
		// the one expected, and as long for none to come.
		for deadline := time.Now().Add(300 * time.Millisecond); ; time.Sleep(10 * time.Millisecond) {
			mu.Lock()
			got := append([]string(nil), told...)
			mu.Unlock()
			if (delay > 0 && len(got) > 0) || time.Now().After(deadline) {
				return got
			}
		}
	}
	if got := call(0); len(got) != 0 {
		t.Errorf("an approval answered at once was told: %q", got)
	}
	got := call(waitFirst + time.Second)
	if len(got) != 1 || !strings.Contains(got[0], `waiting for a person to approve "Send the message"`) {
		t.Errorf("an approval that waited was told %q; want one notification that it waits for a person", got)
	}
}
