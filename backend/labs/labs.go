// Package labs lists the synthetic web apps Observatory ships, by name. Each is a suite of
// its own (its built-in task and scripted attempts, `run --lab NAME`), and an app that a task
// file may name to run against, borrowing its ground truth and its knowledge of when the app
// has settled.
package labs

import (
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
	"observatory/backend/taskfile"
)

// App is one running copy of a lab's app, fresh for each attempt, so that nothing a
// cancelled attempt still sends can reach a newer one: what a task file that names the lab
// runs against (see taskfile.LabApp).
type App = taskfile.LabApp

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

// instance is a lab's instance as labkit launches it: an App with its state.
type instance[S any] interface {
	App
	State() S
}

// kitLab is a lab built on labkit, seen through the Lab interface.
type kitLab[S any, I instance[S]] struct {
	labkit.Lab[S, I]
}

// fromKit is the Lab l is.
func fromKit[S any, I instance[S]](l labkit.Lab[S, I]) Lab { return kitLab[S, I]{l} }

// Launch is the lab's own Launch, returning an App, never a nil instance inside a non-nil App.
func (l kitLab[S, I]) Launch(fault string, params map[string]int) (App, error) {
	in, err := l.Lab.Launch(fault, params)
	if err != nil {
		return nil, err
	}
	return in, nil
}

func (l kitLab[S, I]) On(host string) Lab { return kitLab[S, I]{l.Lab.On(host)} }

// OnHost is On, as a Hosted suite.
func (l kitLab[S, I]) OnHost(host string) agent.Suite { return l.On(host) }

// loggedLab is a lab whose event log records every look-up its store answered, which a
// replay checks the recorded reconciliations against.
type loggedLab struct {
	Lab
	log agent.LookUpLog
}

var _ agent.LookUpLog = loggedLab{}

func (l loggedLab) LookUps(events []agent.Event) ([]agent.LookUp, error) {
	return l.log.LookUps(events)
}

func (l loggedLab) On(host string) Lab { return loggedLab{l.Lab.On(host), l.log} }

// OnHost is On, as a Hosted suite.
func (l loggedLab) OnHost(host string) agent.Suite { return l.On(host) }

// all are the labs, each serving its app on 127.0.0.1.
var all = map[string]Lab{
	"booking":  fromKit(booking.New().Lab),
	"canvas":   fromKit(canvas.New().Lab),
	"checkout": fromKit(checkout.New().Lab),
	"hostile":  fromKit(hostile.New().Lab),
	"outbox":   loggedLab{fromKit(outbox.New().Lab), outbox.New()},
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
	if l, ok := all[name]; ok {
		return l, nil
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
