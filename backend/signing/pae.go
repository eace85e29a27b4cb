package signing

import "strconv"

// PAE is DSSE's pre-authentication encoding of a payload of type payloadType, the bytes a
// signature covers: "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, lengths in ASCII
// decimal (secure-systems-lab/dsse, protocol.md).
func PAE(payloadType string, body []byte) []byte {
	out := make([]byte, 0, 32+len(payloadType)+len(body))
	out = append(out, "DSSEv1 "...)
	out = strconv.AppendInt(out, int64(len(payloadType)), 10)
	out = append(out, ' ')
	out = append(out, payloadType...)
	out = append(out, ' ')
	out = strconv.AppendInt(out, int64(len(body)), 10)
	out = append(out, ' ')
	return append(out, body...)
}
