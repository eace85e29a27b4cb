package taskfile

import "observatory/backend/agent"

// authority maps the task's authority section to the domain and checks it.
func (b *builder) authority(doc *Document) error {
	a := doc.Authority
	if a == nil {
		return nil
	}
	out := &agent.Authority{Principal: a.Principal.toDomain(), Version: a.Version.toDomain()}
	for i := range a.Relevant {
		out.Relevant = append(out.Relevant, *a.Relevant[i].toDomain())
	}
	if a.FreshnessMS != nil {
		out.FreshnessMS = *a.FreshnessMS
	}
	if err := out.Validate(); err != nil {
		return errAt("authority", "%v", err)
	}
	b.s.task.Authority = out
	return nil
}

func (p *Probe) toDomain() *agent.Probe {
	if p == nil {
		return nil
	}
	return &agent.Probe{ID: p.ID, TestID: p.TestID, CSS: p.CSS, Cookie: p.Cookie, Storage: p.Storage}
}
