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

// taskLab is a Lab whose On returns taskfile's Lab, which a Lab's own On cannot: Go matches
// method results exactly.
type taskLab struct{ Lab }

func (l taskLab) On(host string) taskfile.Lab { return taskLab{l.Lab.On(host)} }
