package taskfile

import (
	"bytes"
	"unicode/utf8"
)

// bom is UTF-8's byte-order mark, which some editors put first in a file.
var bom = []byte{0xef, 0xbb, 0xbf}

// utf8Text is a task file's contents as UTF-8 text, without a leading byte-order mark. A file
// that is not UTF-8 is refused at the line and column of the first byte that is not (the
// parsers would otherwise keep such bytes, or replace them, silently); one saved as UTF-16 is
// told so by its byte-order mark.
func utf8Text(data []byte) ([]byte, error) {
	if bytes.HasPrefix(data, []byte{0xff, 0xfe}) || bytes.HasPrefix(data, []byte{0xfe, 0xff}) {
		return nil, errLine(1, "the file is UTF-16 text; save it as UTF-8")
	}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			line := bytes.Count(data[:i], []byte("\n")) + 1
			column := i - bytes.LastIndexByte(data[:i], '\n')
			return nil, errLine(line, "byte 0x%02x at column %d is not UTF-8 text; save the file as UTF-8", data[i], column)
		}
		i += n
	}
	return bytes.TrimPrefix(data, bom), nil
}
