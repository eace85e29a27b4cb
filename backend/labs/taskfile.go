package labs

import "observatory/backend/taskfile"

// ForTaskFiles returns the lab called name as a task file sees it (taskfile.Lab), or an
// error listing the labs there are: the registry the composition root gives task files
// (taskfile.Options.Labs, taskfile.FromSpec).
func ForTaskFiles(name string) (taskfile.Lab, error) {
	l, err := Get(name)
	if err != nil {
		return nil, err
	}
	return taskLab{l}, nil
}

// taskLab is a Lab whose Launch and On return taskfile's types, which a Lab's own (App, Lab)
// cannot be: Go matches method results exactly.
type taskLab struct{ Lab }

func (l taskLab) Launch(fault string, params map[string]int) (taskfile.LabApp, error) {
	a, err := l.Lab.Launch(fault, params)
	if err != nil {
		return nil, err
	}
	return a, nil
}

func (l taskLab) On(host string) taskfile.Lab { return taskLab{l.Lab.On(host)} }
