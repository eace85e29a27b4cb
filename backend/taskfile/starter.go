package taskfile

import _ "embed"

// Starter is a commented task file to start from, what `observatory task new` writes. It is
// a valid task file as it stands.
//
//go:embed starter.yaml
var Starter []byte
