//go:build !unix

package skills

// openNonblock is 0 where FIFOs cannot block an open.
const openNonblock = 0
