//go:build cgo

package version

const cgoEnabled = true
