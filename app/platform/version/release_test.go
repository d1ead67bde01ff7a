package version

import (
	"bytes"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// `make release` and `make test-windows` run TestReleaseBinaries on what they
// built; a plain `go test` skips it.
var (
	releaseDir  = flag.String("release", "", "check the release binaries in this folder (build/bin)")
	artifacts   = flag.String("artifacts", "", "comma-separated file names to check (default: every release binary)")
	wantVersion = flag.String("want-version", "", "the version the binaries must be stamped with")
	wantCommit  = flag.String("want-commit", "", "the commit the binaries must be stamped with")
)

// windowsSystemDLLs are the DLLs every Windows 10 and 11 installation has.
// An import outside this list is a DLL the user would lack; typically
// mingw-w64's runtime (libgcc_s_seh-1.dll, libwinpthread-1.dll), pulled in
// when a cgo package needs it and not linked statically.
var windowsSystemDLLs = []string{
	"advapi32.dll", "bcrypt.dll", "comctl32.dll", "comdlg32.dll", "crypt32.dll", "dnsapi.dll",
	"dwmapi.dll", "gdi32.dll", "imm32.dll", "iphlpapi.dll", "kernel32.dll", "msvcrt.dll",
	"netapi32.dll", "ntdll.dll", "ole32.dll", "oleaut32.dll", "powrprof.dll", "secur32.dll",
	"setupapi.dll", "shcore.dll", "shell32.dll", "shlwapi.dll", "user32.dll", "userenv.dll",
	"uxtheme.dll", "version.dll", "winmm.dll", "winspool.drv", "ws2_32.dll", "wsock32.dll",
}

type binaryCheck struct {
	file  string
	check func(t *testing.T, path string)
}

func releaseChecks() []binaryCheck {
	return []binaryCheck{
		{"hookstudio", func(t *testing.T, path string) {
			// The desktop app links GTK 3 and WebKitGTK 4.0 (and so needs cgo).
			checkELF(t, path, elf.EM_X86_64, "libgtk-3.so.0", "libwebkit2gtk-4.0.so.37", "libc.so.6")
		}},
		{"hookstudio.exe", func(t *testing.T, path string) {
			f := checkPE(t, path, pe.IMAGE_SUBSYSTEM_WINDOWS_GUI)
			// Go loads user32, ole32 and the others at run time, and
			// go-webview2 loads WebView2 from memory: the import table holds
			// kernel32 and the C runtime SQLite uses. The resources carry
			// the manifest (common controls v6, DPI awareness) and the
			// version info.
			requireImports(t, f, "kernel32.dll", "msvcrt.dll")
			rsrc := f.Section(".rsrc")
			if rsrc == nil {
				t.Fatal("no .rsrc section: icon, manifest and version info are missing")
			}
			data, err := rsrc.Data()
			if err != nil {
				t.Fatalf("read .rsrc: %v", err)
			}
			for _, want := range [][]byte{[]byte("Microsoft.Windows.Common-Controls"), []byte("permonitorv2"), utf16("ProductVersion")} {
				if !bytes.Contains(data, want) {
					t.Errorf(".rsrc lacks %q", want)
				}
			}
			if *wantVersion != "" && !bytes.Contains(data, utf16(*wantVersion)) {
				t.Errorf(".rsrc version info lacks %q", *wantVersion)
			}
		}},
		{"hookctl-windows-amd64.exe", func(t *testing.T, path string) {
			f := checkPE(t, path, pe.IMAGE_SUBSYSTEM_WINDOWS_CUI)
			// msvcrt: SQLite is compiled in (cgo), so the history works.
			requireImports(t, f, "kernel32.dll", "msvcrt.dll")
		}},
		{"hookctl-linux-amd64", func(t *testing.T, path string) {
			checkELF(t, path, elf.EM_X86_64, "libc.so.6")
			checkRuns(t, path)
		}},
		{"hookctl-linux-arm64", func(t *testing.T, path string) {
			// libc.so.6: built with cgo, so with the run history.
			checkELF(t, path, elf.EM_AARCH64, "libc.so.6")
		}},
		{"hookctl-darwin-amd64", func(t *testing.T, path string) { checkMachO(t, path, macho.CpuAmd64) }},
		{"hookctl-darwin-arm64", func(t *testing.T, path string) { checkMachO(t, path, macho.CpuArm64) }},
	}
}

func TestReleaseBinaries(t *testing.T) {
	if *releaseDir == "" {
		t.Skip("no -release DIR: run by `make release` and `make test-windows`")
	}
	var only []string
	if *artifacts != "" {
		only = strings.Split(*artifacts, ",")
	}
	checks := releaseChecks()
	for _, name := range only {
		if !slices.ContainsFunc(checks, func(c binaryCheck) bool { return c.file == name }) {
			t.Fatalf("-artifacts: no check for %q", name)
		}
	}
	for _, c := range checks {
		if only != nil && !slices.Contains(only, c.file) {
			continue
		}
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(*releaseDir, c.file)
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("not built: %v", err)
			}
			c.check(t, path)
			checkStamped(t, path)
		})
	}
}

func checkPE(t *testing.T, path string, subsystem uint16) *pe.File {
	t.Helper()
	f, err := pe.Open(path)
	if err != nil {
		t.Fatalf("not a PE file: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
		t.Errorf("machine %#x, want AMD64", f.Machine)
	}
	oh, ok := f.OptionalHeader.(*pe.OptionalHeader64)
	if !ok {
		t.Fatalf("not a PE32+ (64-bit) image")
	}
	if oh.Subsystem != subsystem {
		t.Errorf("subsystem %d, want %d", oh.Subsystem, subsystem)
	}
	libs := importedDLLs(t, f)
	if len(libs) == 0 {
		t.Errorf("imports no DLL at all")
	}
	for _, lib := range libs {
		if !slices.Contains(windowsSystemDLLs, lib) {
			t.Errorf("imports %s, which Windows does not ship (imports: %v)", lib, libs)
		}
	}
	return f
}

// importedDLLs lists the DLLs in f's import table, lower-cased and sorted.
// (pe.File.ImportedLibraries is not implemented; ImportedSymbols returns
// "symbol:dll" for each import.)
func importedDLLs(t *testing.T, f *pe.File) []string {
	t.Helper()
	syms, err := f.ImportedSymbols()
	if err != nil {
		t.Fatalf("imports: %v", err)
	}
	var libs []string
	for _, s := range syms {
		if i := strings.LastIndexByte(s, ':'); i >= 0 {
			libs = append(libs, strings.ToLower(s[i+1:]))
		}
	}
	slices.Sort(libs)
	return slices.Compact(libs)
}

func requireImports(t *testing.T, f *pe.File, want ...string) {
	t.Helper()
	libs := importedDLLs(t, f)
	for _, w := range want {
		if !slices.Contains(libs, w) {
			t.Errorf("does not import %s (imports: %v)", w, libs)
		}
	}
}

func checkELF(t *testing.T, path string, machine elf.Machine, needed ...string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatalf("not an ELF file: %v", err)
	}
	defer f.Close()
	if f.Machine != machine {
		t.Errorf("machine %v, want %v", f.Machine, machine)
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		t.Fatalf("dynamic libraries: %v", err)
	}
	for _, n := range needed {
		if !slices.Contains(libs, n) {
			t.Errorf("does not link %s (links: %v)", n, libs)
		}
	}
}

func checkMachO(t *testing.T, path string, cpu macho.Cpu) {
	t.Helper()
	f, err := macho.Open(path)
	if err != nil {
		t.Fatalf("not a Mach-O file: %v", err)
	}
	defer f.Close()
	if f.Cpu != cpu {
		t.Errorf("cpu %v, want %v", f.Cpu, cpu)
	}
	if f.Type != macho.TypeExec {
		t.Errorf("type %v, want an executable", f.Type)
	}
}

// checkStamped looks for the values -ldflags -X stamped in among the
// binary's strings; the commit (7 hex digits, perhaps -dirty) is what cannot
// be there by chance.
func checkStamped(t *testing.T, path string) {
	t.Helper()
	if *wantVersion == "" && *wantCommit == "" {
		return
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for what, v := range map[string]string{"version": *wantVersion, "commit": *wantCommit} {
		if v != "" && !bytes.Contains(data, []byte(v)) {
			t.Errorf("%s %q not stamped in", what, v)
		}
	}
}

// checkRuns runs a hookctl built for this machine.
func checkRuns(t *testing.T, path string) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return
	}
	out, err := exec.Command(path, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("%s --version: %v\n%s", path, err, out)
	}
	want := "hookctl "
	if *wantVersion != "" && *wantCommit != "" {
		want = fmt.Sprintf("hookctl %s (commit %s, built ", *wantVersion, *wantCommit)
	}
	if !strings.HasPrefix(string(out), want) {
		t.Errorf("%s --version = %q, want it to start with %q", path, out, want)
	}
}

// utf16 is s as UTF-16LE, as Windows resources store strings.
func utf16(s string) []byte {
	b := make([]byte, 0, 2*len(s))
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return b
}
