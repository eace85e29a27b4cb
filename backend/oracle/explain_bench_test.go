package oracle

import (
	"encoding/json"
	"testing"
)

// BenchmarkExplainFailedCheck judges a failing check over a list, as a run judges it after
// every attempt that did not finish: the cost of explaining it in words.
func BenchmarkExplainFailedCheck(b *testing.B) {
	h, err := NewHTTP("", "/api/state", nil, `body.records.exists(r, r.title == "Spectral scan" && r.room == "north") || body.phase == "completed"`)
	if err != nil {
		b.Fatal(err)
	}
	raw, _ := json.Marshal(httpAnswer{Status: 200, ContentType: "application/json",
		Body: json.RawMessage(`{"records":[{"title":"Spectral scan","room":"south"},{"title":"Other","room":"east"}],"phase":"editing"}`)})
	b.ReportAllocs()
	for b.Loop() {
		if v := h.Judge(raw); v.Done {
			b.Fatal("the check holds")
		}
	}
}
