//go:build !cgo

package version

const cgoEnabled = false
