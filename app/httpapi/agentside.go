package httpapi

import (
	"net"
	"net/http"

	"observatory/app/apierror"
	"observatory/backend/liveproc"
)

// agentSide says why the request r, an answer to an approval (Approvals.Answer), comes from the agent's
// side of a run offered in dataDir (see liveproc.AgentSide): such a process may not answer an
// approval through serve either, whatever token it holds. Empty when it may, or when the
// system cannot tell who sent it (not Linux).
func agentSide(r *http.Request, dataDir string) string {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || dataDir == "" {
		return ""
	}
	return liveproc.AgentSide(dataDir, liveproc.TCPPeer(local.String(), r.RemoteAddr))
}

// refuseAgentSide answers a call refused by agentSide.
func refuseAgentSide(w http.ResponseWriter, why string) {
	writeJSON(w, http.StatusForbidden, map[string]any{"error": apierror.New(apierror.Invalid, "refused: only a person answers approvals, and this caller is "+why)})
}
