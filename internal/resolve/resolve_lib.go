package resolve

import (
	"context"
	"debug/elf"
	"encoding/binary"
	"github.com/gate-dev/gate/hostfuncs"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/gate-dev/gate/internal/safefile"
)

// NewLibResolver returns the resolver for "lib:" specs: whether the dynamic
// linker would find a shared library of that exact file name (for example
// "libpq.so.5").
//
// An absolute name checks that one file. A bare name is looked up, in
// order, in LD_LIBRARY_PATH (read here, at construction), the directories
// named by /etc/ld.so.conf (following "include" globs, relative to the
// including file's directory as ldconfig does), and the default directories
// /lib, /usr/lib, /lib64, /usr/lib64 and their multiarch forms for the
// running GOARCH (such as /usr/lib/x86_64-linux-gnu). The configuration is
// read once, on Prepare or the first Resolve.
//
// A candidate counts only if it is a regular file (after symlinks) with an
// ELF header for a shared object of the running architecture: ld.so skips
// the others too, which matters for GNU ld scripts named libc.so and for
// 32-bit libraries in biarch directories such as /usr/lib32.
//
// /etc/ld.so.cache is not read: its binary format differs between glibc
// versions and does not exist on musl, it can list files that were since
// deleted, and the directories it was built from are the ones searched
// here. The price is that a library in an ld.so.conf directory is reported
// present before ldconfig has run, when ld.so itself would miss it.
//
// Also not modelled: DT_RPATH/DT_RUNPATH of the program that would load the
// library, glibc-hwcaps subdirectories, and $ORIGIN-style tokens. Empty and
// relative LD_LIBRARY_PATH entries are ignored, for the reason given at
// NewBinResolver.
//
// Reading is bounded (see resolve_file.go): configuration files that are
// not regular files or exceed libMaxConfBytes are skipped, as are includes
// past libMaxConfFiles files or libMaxGlobEntries directory entries, and
// at most libMaxDirs directories are searched.
func NewLibResolver() hostfuncs.Resolver {
	return newLibResolver(os.Getenv("LD_LIBRARY_PATH"), "/etc/ld.so.conf")
}

// newLibResolver is NewLibResolver with its inputs exposed for tests.
func newLibResolver(ldLibraryPath, ldSoConf string) *libResolver {
	l := &libResolver{}
	l.dirs = sync.OnceValue(func() []string {
		var dirs []string
		for _, d := range strings.FieldsFunc(ldLibraryPath, func(r rune) bool { return r == ':' || r == ';' }) {
			if filepath.IsAbs(d) {
				dirs = append(dirs, d)
			}
		}
		dirs = append(dirs, libParseConf(ldSoConf, 0, map[string]bool{})...)
		dirs = append(dirs[:min(len(dirs), libMaxDirs)], libDefaultDirs(runtime.GOARCH)...)
		return libDedupe(dirs)
	})
	return l
}

type libResolver struct {
	dirs func() []string // search directories, computed once
}

// Prepare reads the linker configuration so the first Resolve does not.
func (l *libResolver) Prepare(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	l.dirs()
	return nil
}

func (l *libResolver) Resolve(ctx context.Context, name string) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	if err := resolverCheckPathName("lib", name); err != nil {
		return false, err
	}
	if filepath.IsAbs(name) {
		return libIsLoadable(name), nil
	}
	for _, d := range l.dirs() {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		if libIsLoadable(d + "/" + name) {
			return true, nil
		}
	}
	return false, nil
}

// Bounds on reading the linker configuration. Real systems use a few
// files of a few lines; the bounds only stop a configuration that would
// otherwise hold a resolver (and the probe waiting on it) for good.
const (
	libMaxConfBytes   = 1 << 20 // per file
	libMaxConfFiles   = 256     // ld.so.conf and everything it includes
	libMaxGlobEntries = 16384   // directory entries read to expand includes
	libMaxDirs        = 256     // configured directories searched per lookup
)

// libParseConf returns the directories listed in an ld.so.conf-style file,
// expanding "include" lines. seen guards against include cycles and, by
// its size, against too many files; depth against pathological nesting.
func libParseConf(path string, depth int, seen map[string]bool) []string {
	budget := libMaxGlobEntries
	return libParseConfBounded(path, depth, seen, &budget)
}

func libParseConfBounded(path string, depth int, seen map[string]bool, globBudget *int) []string {
	if depth > 16 || seen[path] || len(seen) >= libMaxConfFiles {
		return nil
	}
	seen[path] = true
	// A missing ld.so.conf is normal on musl and in containers; a FIFO, a
	// device or a huge file is skipped as if it were missing.
	content, err := safefile.Read(path, libMaxConfBytes)
	if err != nil {
		return nil
	}
	var dirs []string
	for line := range strings.Lines(string(content)) {
		line = strings.TrimRight(line, "\r\n")
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		switch fields[0] {
		case "include":
			for _, pat := range fields[1:] {
				if !filepath.IsAbs(pat) {
					pat = filepath.Join(filepath.Dir(path), pat)
				}
				for _, m := range boundedGlob(pat, globBudget) { // sorted, as ldconfig's glob(3)
					dirs = append(dirs, libParseConfBounded(m, depth+1, seen, globBudget)...)
				}
			}
		case "hwcap":
			// Obsolete; ldconfig ignores it too.
		default:
			// ldconfig takes the whole line as one directory, with an
			// optional "=TYPE" suffix from libc5 days.
			d := strings.TrimSpace(line)
			if i := strings.IndexByte(d, '='); i >= 0 {
				d = d[:i]
			}
			if filepath.IsAbs(d) {
				dirs = append(dirs, filepath.Clean(d))
			}
		}
	}
	return dirs
}

// libMultiarch maps GOARCH to the Debian multiarch tuple. It lists the
// ports that Debian and Ubuntu ship; other systems use /lib and /usr/lib.
var libMultiarch = map[string]string{
	"amd64":    "x86_64-linux-gnu",
	"386":      "i386-linux-gnu",
	"arm64":    "aarch64-linux-gnu",
	"arm":      "arm-linux-gnueabihf",
	"ppc64le":  "powerpc64le-linux-gnu",
	"s390x":    "s390x-linux-gnu",
	"riscv64":  "riscv64-linux-gnu",
	"mips64le": "mips64el-linux-gnuabi64",
	"loong64":  "loongarch64-linux-gnu",
}

// libDefaultDirs returns the directories ld.so searches without
// configuration, multiarch ones first as Debian's ld.so does.
func libDefaultDirs(goarch string) []string {
	var dirs []string
	if t, ok := libMultiarch[goarch]; ok {
		dirs = append(dirs, "/lib/"+t, "/usr/lib/"+t)
	}
	return append(dirs, "/lib", "/usr/lib", "/lib64", "/usr/lib64")
}

// libDedupe drops repeated directories, comparing them after symlinks so
// that /lib -> usr/lib merged systems search each directory once.
func libDedupe(dirs []string) []string {
	seen := map[string]bool{}
	out := dirs[:0:0]
	for _, d := range dirs {
		key := d
		if real, err := filepath.EvalSymlinks(d); err == nil {
			key = real
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}

// libMachines maps GOARCH to the ELF class and machine ld.so would accept.
var libMachines = map[string]struct {
	class   elf.Class
	data    elf.Data
	machine elf.Machine
}{
	"amd64":    {elf.ELFCLASS64, elf.ELFDATA2LSB, elf.EM_X86_64},
	"386":      {elf.ELFCLASS32, elf.ELFDATA2LSB, elf.EM_386},
	"arm64":    {elf.ELFCLASS64, elf.ELFDATA2LSB, elf.EM_AARCH64},
	"arm":      {elf.ELFCLASS32, elf.ELFDATA2LSB, elf.EM_ARM},
	"ppc64le":  {elf.ELFCLASS64, elf.ELFDATA2LSB, elf.EM_PPC64},
	"ppc64":    {elf.ELFCLASS64, elf.ELFDATA2MSB, elf.EM_PPC64},
	"s390x":    {elf.ELFCLASS64, elf.ELFDATA2MSB, elf.EM_S390},
	"riscv64":  {elf.ELFCLASS64, elf.ELFDATA2LSB, elf.EM_RISCV},
	"mips64le": {elf.ELFCLASS64, elf.ELFDATA2LSB, elf.EM_MIPS},
	"mips64":   {elf.ELFCLASS64, elf.ELFDATA2MSB, elf.EM_MIPS},
	"loong64":  {elf.ELFCLASS64, elf.ELFDATA2LSB, elf.EM_LOONGARCH},
}

// libIsLoadable reports whether path is a regular file that starts with
// an ELF header of a shared object for the running architecture. Reading
// 20 bytes costs one stat, one open and one read, far below the probe
// budget, and spares us calling a linker script or a 32-bit library
// present. Anything but a regular file is never opened (safefile.Open).
func libIsLoadable(path string) bool {
	f, _, err := safefile.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var hdr [20]byte
	if _, err := io.ReadFull(f, hdr[:]); err != nil {
		return false
	}
	return libHeaderOK(hdr[:], runtime.GOARCH)
}

// libHeaderOK checks e_ident, e_type and e_machine of an ELF header.
func libHeaderOK(hdr []byte, goarch string) bool {
	if len(hdr) < 20 || string(hdr[:4]) != elf.ELFMAG {
		return false
	}
	var order binary.ByteOrder
	switch elf.Data(hdr[elf.EI_DATA]) {
	case elf.ELFDATA2LSB:
		order = binary.LittleEndian
	case elf.ELFDATA2MSB:
		order = binary.BigEndian
	default:
		return false
	}
	if elf.Type(order.Uint16(hdr[16:18])) != elf.ET_DYN {
		return false
	}
	want, ok := libMachines[goarch]
	if !ok {
		return true // unknown port: accept any shared object rather than none
	}
	return elf.Class(hdr[elf.EI_CLASS]) == want.class &&
		elf.Data(hdr[elf.EI_DATA]) == want.data &&
		elf.Machine(order.Uint16(hdr[18:20])) == want.machine
}
