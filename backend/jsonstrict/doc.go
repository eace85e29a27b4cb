// Package jsonstrict is the one strict reading of JSON that every file Observatory takes in
// goes through before it is decoded: exactly one JSON value, no object naming a member twice
// at any depth (keys compared after unescaping, so "data" and "d\u0061ta" are the same key),
// and no deeper nesting than MaxDepth.
//
// encoding/json, like most decoders, quietly keeps the last of two members with the same
// name, and merges two objects given for one field; other JSON readers keep the first or
// fail. A file that different readers see differently can pass a check on one reading and
// be judged on another, so such a file is refused, with the JSON path of the offending key.
//
// encoding/json also matches a struct's field names ignoring case, so "Video" fills the
// field "video". Unmarshal, which every file decoded into a struct goes through, refuses a
// key that matches a field only that way.
package jsonstrict
