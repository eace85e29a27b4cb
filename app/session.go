package app

// SessionInfo tells the UI where it runs.
type SessionInfo struct {
	Version   string `json:"version"`
	Transport string `json:"transport"`
	DataDir   string `json:"data_dir"`
}

// Session answers the UI's first call.
type Session struct {
	info    SessionInfo
	onReady func()
}

// Ready is called by the frontend once it has mounted. It proves the UI reached the backend,
// which the desktop smoke test waits for.
func (s *Session) Ready() SessionInfo {
	if s.onReady != nil {
		s.onReady()
	}
	return s.info
}
