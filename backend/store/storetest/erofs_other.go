//go:build !unix

package storetest

func isReadOnlyFS(error) bool { return false }
