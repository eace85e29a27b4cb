package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// stopGrace is how long a command has, after SIGINT or SIGTERM, to finish what it can (the
// attempt under way, its video, the store) before the process exits regardless.
const stopGrace = 10 * time.Second

// Main runs the command line as the process does and returns its exit code. The first SIGINT
// or SIGTERM cancels the command's context, and the command finishes what it can: a run ends
// its attempt as cancelled, closes the page (finishing the video) and records the run as
// cancelled. A second signal, or stopGrace passing, exits at once with status 130.
func Main(env Env, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go exitWhenStopped(ctx, env.Stderr, stopGrace, os.Exit)
	return Execute(ctx, env, args)
}

// exitWhenStopped waits until a signal cancels ctx, then calls exit(130) on the next signal
// or once grace has passed. It returns when ctx ends for any other reason: the command ended.
func exitWhenStopped(ctx context.Context, stderr io.Writer, grace time.Duration, exit func(int)) {
	<-ctx.Done()
	cause := context.Cause(ctx)
	if cause == context.Canceled { // stop was called, not a signal
		return
	}
	again := make(chan os.Signal, 1)
	signal.Notify(again, os.Interrupt, syscall.SIGTERM)
	fmt.Fprintf(stderr, "\nobservatory: %v: stopping; Ctrl+C again quits at once\n", cause)
	timer := time.NewTimer(grace)
	defer timer.Stop()
	select {
	case s := <-again:
		fmt.Fprintf(stderr, "observatory: %v again: quitting now\n", s)
	case <-timer.C:
		fmt.Fprintf(stderr, "observatory: still stopping after %s: quitting now\n", grace)
	}
	exit(130)
}
