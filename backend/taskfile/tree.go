package taskfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// Limits on a task file, checked before anything else is read from it.
const (
	// MaxFileSize is the largest task file, in bytes.
	MaxFileSize = 1 << 20
	// MaxDepth is the deepest nesting of objects and lists.
	MaxDepth = 32
	// MaxKeys is the most keys in one object. The YAML parser's time grows with the square
	// of a block mapping's keys (100,000 keys, still under MaxFileSize, take most of a
	// minute), so a file over it is refused before it parses.
	MaxKeys = 1000
	// MaxFileKeys is the most keys in the whole file, which keeps a file of many objects
	// each just under MaxKeys quick to parse too.
	MaxFileKeys = 10 * MaxKeys
	// MaxFileTokens is the most YAML tokens (keys, values, dashes, colons, brackets and
	// commas; not comments) in a file: a task file needs a few thousand, and a list of
	// hundreds of thousands of values, still under MaxFileSize, takes seconds to parse.
	MaxFileTokens = 100_000
	// maxBlockColumn bounds where a block-style key or list entry may start, so that nesting
	// the parser would recurse through is refused before it parses (MaxDepth is then checked
	// on the tree, with the path).
	maxBlockColumn = 512
)

// kind is the type of a value in a task file.
type kind int

const (
	kNull kind = iota
	kBool
	kInt
	kFloat
	kString
	kList
	kObject
)

// what names a kind in errors: "want a string, got a number".
func (k kind) what() string {
	return [...]string{"null", "a boolean", "a number", "a number", "a string", "a list", "an object"}[k]
}

// node is one value of a task file, YAML or JSON alike, with the line it starts on.
type node struct {
	kind   kind
	line   int
	b      bool
	i      int64
	f      float64
	s      string
	items  []*node
	fields []field // in the file's order
}

type field struct {
	key string
	val *node
}

// parseYAML reads one YAML document into a tree. Anchors, aliases, tags and merge keys are
// refused (so an alias bomb cannot expand), as are duplicate keys, more keys than MaxKeys in
// an object or MaxFileKeys in the file, more tokens than MaxFileTokens, and nesting deeper
// than MaxDepth.
func parseYAML(data []byte) (*node, error) {
	tokens := lexer.Tokenize(string(data))
	if err := prescan(tokens); err != nil {
		return nil, err
	}
	f, err := parser.Parse(tokens, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		return nil, syntaxError(err)
	}
	var docs []*ast.DocumentNode
	for _, d := range f.Docs {
		if d.Body != nil {
			docs = append(docs, d)
		}
	}
	switch len(docs) {
	case 0:
		return nil, errLine(0, "the file is empty")
	case 1:
		return fromYAML(docs[0].Body, "", 1)
	}
	return nil, errLine(line(docs[1].Body), "a task file is one YAML document, this is a second")
}

// prescan refuses, from the tokens alone, flow nesting deeper than MaxDepth, block nesting
// the parser would recurse deeply through, objects with more than MaxKeys keys, and files with
// more than MaxFileKeys keys or MaxFileTokens tokens.
func prescan(tokens token.Tokens) error {
	var flow []*int   // open flow collections: a mapping's key count, nil for a sequence
	var block []mkeys // open block mappings, outermost first
	total := 0        // keys in the file
	counted := 0      // tokens in the file, comments aside
	for i, tk := range tokens {
		if tk.Type != token.CommentType {
			if counted++; counted > MaxFileTokens {
				return errLine(tk.Position.Line, "more than %d YAML tokens (keys, values and punctuation) in the file", MaxFileTokens)
			}
		}
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			var keys *int
			if tk.Type == token.MappingStartType {
				keys = new(int)
			}
			if flow = append(flow, keys); len(flow) > MaxDepth {
				return errLine(tk.Position.Line, "nested deeper than %d levels", MaxDepth)
			}
		case token.SequenceEndType, token.MappingEndType:
			if len(flow) > 0 {
				flow = flow[:len(flow)-1]
			}
		case token.SequenceEntryType:
			if len(flow) == 0 {
				if tk.Position.Column > maxBlockColumn {
					return errLine(tk.Position.Line, "nested deeper than %d levels (an entry at column %d)", MaxDepth, tk.Position.Column)
				}
				block = closeBlocks(block, tk.Position.Column)
			}
		case token.MappingValueType:
			if total++; total > MaxFileKeys {
				return errLine(tk.Position.Line, "more than %d keys in the file", MaxFileKeys)
			}
			if len(flow) > 0 {
				if keys := flow[len(flow)-1]; keys != nil {
					if *keys++; *keys > MaxKeys {
						return errLine(tk.Position.Line, "more than %d keys in one object", MaxKeys)
					}
				}
				continue
			}
			if tk.Position.Column > maxBlockColumn {
				return errLine(tk.Position.Line, "nested deeper than %d levels (an entry at column %d)", MaxDepth, tk.Position.Column)
			}
			col := tk.Position.Column
			if i > 0 && tokens[i-1].Position.Line == tk.Position.Line {
				col = tokens[i-1].Position.Column // the key's column
			}
			if block = closeBlocks(block, col); len(block) > 0 && block[len(block)-1].column == col {
				block[len(block)-1].keys++
			} else {
				block = append(block, mkeys{column: col, keys: 1})
			}
			if block[len(block)-1].keys > MaxKeys {
				return errLine(tk.Position.Line, "more than %d keys in one object", MaxKeys)
			}
		case token.DocumentHeaderType:
			block = block[:0]
		}
	}
	return nil
}

// mkeys is a block mapping open in prescan: the column its keys start at and how many it has.
type mkeys struct{ column, keys int }

// closeBlocks drops the block mappings a key or entry at column ends: those indented more.
func closeBlocks(block []mkeys, column int) []mkeys {
	for len(block) > 0 && block[len(block)-1].column > column {
		block = block[:len(block)-1]
	}
	return block
}

// syntaxError turns the parser's error into a located one.
func syntaxError(err error) error {
	var se interface {
		GetMessage() string
		GetToken() *token.Token
	}
	if errors.As(err, &se) && se.GetToken() != nil && se.GetToken().Position != nil {
		return errLine(se.GetToken().Position.Line, "not valid YAML: %s", se.GetMessage())
	}
	return errLine(0, "not valid YAML: %v", err)
}

func line(n ast.Node) int {
	if tk := n.GetToken(); tk != nil && tk.Position != nil {
		return tk.Position.Line
	}
	return 0
}

// fromYAML converts one node at path, depth levels deep.
func fromYAML(n ast.Node, path string, depth int) (*node, error) {
	out := &node{line: line(n)}
	switch n := n.(type) {
	case *ast.MappingNode:
		return mappingFromYAML(n.Values, out, path, depth)
	case *ast.MappingValueNode:
		return mappingFromYAML([]*ast.MappingValueNode{n}, out, path, depth)
	case *ast.SequenceNode:
		if depth > MaxDepth {
			return nil, errAt(path, "nested deeper than %d levels", MaxDepth)
		}
		out.kind = kList
		for i, v := range n.Values {
			item, err := fromYAML(v, index(path, i), depth+1)
			if err != nil {
				return nil, err
			}
			out.items = append(out.items, item)
		}
	case *ast.StringNode:
		out.kind, out.s = kString, n.Value
	case *ast.LiteralNode:
		out.kind, out.s = kString, n.Value.Value
	case *ast.IntegerNode:
		switch i := n.Value.(type) {
		case int64:
			out.kind, out.i = kInt, i
		case uint64:
			if i > math.MaxInt64 {
				return nil, errAt(path, "the number %s is too large", n.Token.Value)
			}
			out.kind, out.i = kInt, int64(i)
		default:
			return nil, errAt(path, "the number %s is not a whole number", n.Token.Value)
		}
	case *ast.FloatNode:
		out.kind, out.f = kFloat, n.Value
	case *ast.BoolNode:
		out.kind, out.b = kBool, n.Value
	case *ast.NullNode:
		out.kind = kNull
	case *ast.AnchorNode, *ast.AliasNode:
		return nil, errAt(path, "anchors and aliases (&name, *name) are not allowed in a task file")
	case *ast.TagNode:
		return nil, errAt(path, "tags (%s) are not allowed in a task file", n.Start.Value)
	case *ast.InfinityNode, *ast.NanNode:
		return nil, errAt(path, "want a finite number")
	default:
		return nil, errAt(path, "unsupported YAML (%s)", n.Type())
	}
	return out, nil
}

func mappingFromYAML(pairs []*ast.MappingValueNode, out *node, path string, depth int) (*node, error) {
	if depth > MaxDepth {
		return nil, errAt(path, "nested deeper than %d levels", MaxDepth)
	}
	out.kind = kObject
	seen := map[string]bool{}
	for _, mv := range pairs {
		var key string
		switch k := mv.Key.(type) {
		case *ast.StringNode:
			key = k.Value
		case *ast.MergeKeyNode:
			return nil, errAt(path, "merge keys (<<) are not allowed in a task file")
		default:
			return nil, errAt(path, "keys are plain text; %q is not", mv.Key.String())
		}
		at := join(path, key)
		if seen[key] {
			return nil, errAt(at, "duplicate key")
		}
		seen[key] = true
		val, err := fromYAML(mv.Value, at, depth+1)
		if err != nil {
			return nil, err
		}
		out.fields = append(out.fields, field{key: key, val: val})
	}
	return out, nil
}

// parseJSON reads one JSON value into a tree, refusing duplicate keys, objects with more
// than MaxKeys keys and nesting deeper than MaxDepth.
func parseJSON(data []byte) (*node, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	lineAt := func() int { return bytes.Count(data[:d.InputOffset()], []byte("\n")) + 1 }
	root, err := jsonValue(d, "", 1, lineAt)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); !errors.Is(err, io.EOF) {
		return nil, errLine(lineAt(), "data after the JSON document")
	}
	return root, nil
}

func jsonValue(d *json.Decoder, path string, depth int, lineAt func() int) (*node, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, jsonError(err, lineAt())
	}
	out := &node{line: lineAt()}
	switch t := tok.(type) {
	case json.Delim:
		if depth > MaxDepth {
			return nil, errAt(path, "nested deeper than %d levels", MaxDepth)
		}
		if t == '[' {
			out.kind = kList
			for i := 0; d.More(); i++ {
				item, err := jsonValue(d, index(path, i), depth+1, lineAt)
				if err != nil {
					return nil, err
				}
				out.items = append(out.items, item)
			}
		} else {
			out.kind = kObject
			seen := map[string]bool{}
			for d.More() {
				kt, err := d.Token()
				if err != nil {
					return nil, jsonError(err, lineAt())
				}
				key := kt.(string) // the decoder only yields strings as object keys
				at := join(path, key)
				if seen[key] {
					return nil, errAt(at, "duplicate key")
				}
				seen[key] = true
				if len(seen) > MaxKeys {
					return nil, errAt(path, "more than %d keys in one object", MaxKeys)
				}
				val, err := jsonValue(d, at, depth+1, lineAt)
				if err != nil {
					return nil, err
				}
				out.fields = append(out.fields, field{key: key, val: val})
			}
		}
		if _, err := d.Token(); err != nil { // the closing delimiter
			return nil, jsonError(err, lineAt())
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			out.kind, out.i = kInt, i
		} else if f, err := t.Float64(); err == nil && !math.IsInf(f, 0) {
			out.kind, out.f = kFloat, f
		} else {
			return nil, errAt(path, "the number %s is out of range", t)
		}
	case string:
		out.kind, out.s = kString, t
	case bool:
		out.kind, out.b = kBool, t
	case nil:
		out.kind = kNull
	default:
		return nil, errAt(path, "unexpected JSON token %v", fmt.Sprint(t))
	}
	return out, nil
}

// jsonError is a located syntax error; the end of the file is "unexpected end".
func jsonError(err error, line int) *Error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errLine(line, "not valid JSON: unexpected end of the file")
	}
	return errLine(line, "not valid JSON: %v", err)
}
