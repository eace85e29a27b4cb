// Package labs lists the synthetic web apps Observatory ships, by name. Each is a suite of
// its own (its built-in task and scripted attempts, `run --lab NAME`), and an app that a task
// file may name to run against, borrowing its ground truth and its knowledge of when the app
// has settled.
package labs

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"observatory/backend/agent"
	"observatory/backend/labs/booking"
	"observatory/backend/labs/canvas"
	"observatory/backend/labs/checkout"
	"observatory/backend/labs/hostile"
	"observatory/backend/labs/internal/labkit"
	"observatory/backend/labs/outbox"
)

// App is one running copy of a lab's app, fresh for each attempt, so that nothing a
// cancelled attempt still sends can reach a newer one.
type App interface {
	// URL is the app's base address.
	URL() string
	// Quiesce waits until no request is still being handled, so the store stops changing.
	Quiesce(ctx context.Context) error
	// Events returns the app's ordered event log so far.
	Events() []agent.Event
	// Settler takes the app's state now and returns what it says of a gate evaluated after
	// it: whether waiting is pointless (a refused save), and why; "" while waiting still makes
	// sense. The state is taken first so that a gate read a moment later (over HTTP) is never
	// judged against a state newer than it: a notice that arrived in between would otherwise
	// look like a notice shown for a save that failed the gate.
	Settler() func(g agent.Gate) (agent.Terminal, string)
	// Close stops the app; late requests from an abandoned page are refused.
	Close() error
}

// Lab is a synthetic web app with an event log and a transition function.
type Lab interface {
	agent.Suite
	agent.Replayer
	Name() string
	// Launch serves a fresh copy of the app with a fault mode and the lab's parameters.
	Launch(fault string, params map[string]int) (App, error)
	// Truth is the ground truth an event log rebuilds, named and with its evidence.
	Truth(events []agent.Event) (agent.Signal, error)
	// On returns the lab serving its app on host (see CheckHost) instead of 127.0.0.1.
	On(host string) Lab
}

// Hosted is a suite whose app a lab serves here: a lab's own task, or a task file that names
// a lab (one on a site of its own is not).
type Hosted interface {
	// OnHost returns the suite with its lab's app served on host, an address the browser can
	// reach (see CheckHost).
	OnHost(host string) agent.Suite
}

// DefaultHost is the address labs listen on unless told otherwise: this machine's loopback.
const DefaultHost = labkit.DefaultHost

// CheckHost refuses a lab host a browser cannot be sent to: a wildcard, or not an address.
func CheckHost(host string) error { return labkit.CheckHost(host) }

// lab is a lab whose Launch returns its own instance type, seen through the Lab interface.
type lab struct {
	suite
	launch func(fault string, params map[string]int) (App, error)
	on     func(host string) Lab
}

// suite is what a lab's own type provides besides Launch.
type suite interface {
	agent.Suite
	agent.Replayer
	Name() string
	Truth(events []agent.Event) (agent.Signal, error)
}

func (l lab) Launch(fault string, params map[string]int) (App, error) { return l.launch(fault, params) }

func (l lab) On(host string) Lab { return l.on(host) }

// OnHost is On, as a Hosted suite.
func (l lab) OnHost(host string) agent.Suite { return l.on(host) }

// launcher turns a lab's concrete Launch into one that returns an App, never a nil instance
// inside a non-nil App.
func launcher[I App](launch func(string, map[string]int) (I, error)) func(string, map[string]int) (App, error) {
	return func(fault string, params map[string]int) (App, error) {
		in, err := launch(fault, params)
		if err != nil {
			return nil, err
		}
		return in, nil
	}
}

// The labs, each serving its app on host (127.0.0.1 when empty).
func bookingLab(host string) Lab {
	b := booking.New().On(host)
	return lab{b, launcher(b.Launch), bookingLab}
}

func canvasLab(host string) Lab {
	c := canvas.New().On(host)
	return lab{c, launcher(c.Launch), canvasLab}
}

func checkoutLab(host string) Lab {
	c := checkout.New().On(host)
	return lab{c, launcher(c.Launch), checkoutLab}
}

func hostileLab(host string) Lab {
	h := hostile.New().On(host)
	return lab{h, launcher(h.Launch), hostileLab}
}

func outboxLab(host string) Lab {
	o := outbox.New().On(host)
	return loggedLab{lab{o, launcher(o.Launch), outboxLab}, o}
}

// loggedLab is a lab whose event log records every look-up its store answered, which a
// replay checks the recorded reconciliations against.
type loggedLab struct {
	lab
	log agent.LookUpLog
}

var _ agent.LookUpLog = loggedLab{}

func (l loggedLab) LookUps(events []agent.Event) ([]agent.LookUp, error) {
	return l.log.LookUps(events)
}

var all = map[string]func(host string) Lab{
	"booking": bookingLab, "canvas": canvasLab, "checkout": checkoutLab, "hostile": hostileLab, "outbox": outboxLab,
}

// taskFiles are the labs that ship their own task as a task file (backend/labs/NAME/task.yaml).
var taskFiles = map[string][]byte{"booking": booking.TaskFile, "checkout": checkout.TaskFile}

// TaskFile returns the task file the lab called name ships as its own task, built in; an
// error names the labs that ship one.
func TaskFile(name string) ([]byte, error) {
	if _, err := Get(name); err != nil {
		return nil, err
	}
	if b, ok := taskFiles[name]; ok {
		return b, nil
	}
	var with []string
	for n := range taskFiles {
		with = append(with, n)
	}
	sort.Strings(with)
	return nil, fmt.Errorf("the %s lab ships no task file; these do: %s", name, strings.Join(with, ", "))
}

// Get returns the lab called name, serving its app on 127.0.0.1, or an error listing the
// labs there are.
func Get(name string) (Lab, error) {
	if mk, ok := all[name]; ok {
		return mk(""), nil
	}
	return nil, fmt.Errorf("no lab called %q; the labs are %v", name, Names())
}

// Names lists the labs in order.
func Names() []string {
	names := make([]string, 0, len(all))
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
