package runfile

import "observatory/backend/agent"

// The authority records in a run file: the task's authority declaration, the principal,
// relevant text and version each sample read, and the fingerprint each decision was taken
// on, each mapped explicitly to and from the domain. All are optional in observatory.run/v2.

type probeV2 struct {
	ID      string `json:"id,omitempty"`
	TestID  string `json:"test_id,omitempty"`
	CSS     string `json:"css,omitempty"`
	Cookie  string `json:"cookie,omitempty"`
	Storage string `json:"storage,omitempty"`
}

type authorityV2 struct {
	Principal   *probeV2  `json:"principal,omitempty"`
	Relevant    []probeV2 `json:"relevant,omitempty"`
	Version     *probeV2  `json:"version,omitempty"`
	FreshnessMS int       `json:"freshness_ms,omitempty"`
}

// noticePlaceV2 is where a task's named notice is shown (agent.NoticePlace).
type noticePlaceV2 struct {
	ID     string `json:"id"`
	TestID string `json:"test_id,omitempty"`
	CSS    string `json:"css,omitempty"`
}

func fromNoticePlace(p agent.NoticePlace) noticePlaceV2 {
	return noticePlaceV2{ID: p.ID, TestID: p.TestID, CSS: p.CSS}
}

func (p noticePlaceV2) toDomain() agent.NoticePlace {
	return agent.NoticePlace{ID: p.ID, TestID: p.TestID, CSS: p.CSS}
}

type factV2 struct {
	ID    string `json:"id"`
	Value string `json:"value"`
}

type fingerprintV2 struct {
	Route     string `json:"route"`
	Principal string `json:"principal,omitempty"`
	Target    string `json:"target,omitempty"`
	Relevant  string `json:"relevant,omitempty"`
	Version   string `json:"version,omitempty"`
	Dialog    bool   `json:"dialog,omitempty"`
	Form      string `json:"form"`
	AtMS      int64  `json:"at_ms"`
	Hash      string `json:"hash"`
}

func fromProbe(p agent.Probe) probeV2 {
	return probeV2{ID: p.ID, TestID: p.TestID, CSS: p.CSS, Cookie: p.Cookie, Storage: p.Storage}
}

func (p probeV2) toDomain() agent.Probe {
	return agent.Probe{ID: p.ID, TestID: p.TestID, CSS: p.CSS, Cookie: p.Cookie, Storage: p.Storage}
}

func fromAuthority(a agent.Authority) authorityV2 {
	return authorityV2{Principal: ptr(a.Principal, fromProbe), Relevant: mapSlice(a.Relevant, fromProbe),
		Version: ptr(a.Version, fromProbe), FreshnessMS: a.FreshnessMS}
}

func (a authorityV2) toDomain() agent.Authority {
	return agent.Authority{Principal: ptr(a.Principal, probeV2.toDomain), Relevant: mapSlice(a.Relevant, probeV2.toDomain),
		Version: ptr(a.Version, probeV2.toDomain), FreshnessMS: a.FreshnessMS}
}

func fromFact(f agent.Fact) factV2 { return factV2{ID: f.ID, Value: f.Value} }

func (f factV2) toDomain() agent.Fact { return agent.Fact{ID: f.ID, Value: f.Value} }

func fromFingerprint(f agent.Fingerprint) fingerprintV2 {
	return fingerprintV2{Route: f.Route, Principal: f.Principal, Target: f.Target, Relevant: f.Relevant,
		Version: f.Version, Dialog: f.Dialog, Form: f.Form, AtMS: f.AtMS, Hash: f.Hash}
}

func (f fingerprintV2) toDomain() agent.Fingerprint {
	return agent.Fingerprint{Route: f.Route, Principal: f.Principal, Target: f.Target, Relevant: f.Relevant,
		Version: f.Version, Dialog: f.Dialog, Form: f.Form, AtMS: f.AtMS, Hash: f.Hash}
}
