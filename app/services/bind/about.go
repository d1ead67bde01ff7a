package bind

import "hookstudio/app/platform/version"

// About is bound as window.go.bind.About: what this build of the app is,
// for the help overlay's About.
type About struct{}

// NewAbout returns the About service.
func NewAbout() *About { return &About{} }

// Info returns the version, commit and build date stamped in at build time.
func (*About) Info() version.Info { return version.Get() }
