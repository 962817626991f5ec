package resolve

import (
	"context"
	"debug/elf"
	"encoding/binary"
	"github.com/gate-dev/gate/internal/grants"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rtestELF returns a 64-byte ELF header: enough for the resolver's check,
// and nothing a real linker could load, which is the point of a fake.
func rtestELF(class elf.Class, data elf.Data, typ elf.Type, machine elf.Machine) string {
	hdr := make([]byte, 64)
	copy(hdr, elf.ELFMAG)
	hdr[elf.EI_CLASS] = byte(class)
	hdr[elf.EI_DATA] = byte(data)
	hdr[elf.EI_VERSION] = byte(elf.EV_CURRENT)
	var order binary.ByteOrder = binary.LittleEndian
	if data == elf.ELFDATA2MSB {
		order = binary.BigEndian
	}
	order.PutUint16(hdr[16:], uint16(typ))
	order.PutUint16(hdr[18:], uint16(machine))
	return string(hdr)
}

// rtestNativeELF is a fake shared object for the running architecture.
func rtestNativeELF(t testing.TB) string {
	m, ok := libMachines[runtime.GOARCH]
	require.True(t, ok, "no ELF machine known for GOARCH %s", runtime.GOARCH)
	return rtestELF(m.class, m.data, elf.ET_DYN, m.machine)
}

// rtestLibc finds libc.so.6 where this machine keeps it.
func rtestLibc(t testing.TB) string {
	for _, d := range libDefaultDirs(runtime.GOARCH) {
		p := filepath.Join(d, "libc.so.6")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	require.FailNow(t, "libc.so.6 not found in the default library directories")
	return ""
}

func TestLibResolver(t *testing.T) {
	tmp := t.TempDir()
	native := rtestNativeELF(t)
	rtestWrite(t, filepath.Join(tmp, "libfake.so.1"), native, 0o644)
	require.NoError(t, os.Symlink("libfake.so.1", filepath.Join(tmp, "liblink.so")))
	rtestWrite(t, filepath.Join(tmp, "libscript.so"), "/* GNU ld script */\nGROUP ( libfake.so.1 )\n", 0o644)
	rtestWrite(t, filepath.Join(tmp, "libwrongclass.so"), rtestELF(elf.ELFCLASS32, elf.ELFDATA2LSB, elf.ET_DYN, elf.EM_386), 0o644)
	rtestWrite(t, filepath.Join(tmp, "libexec.so"), rtestELF(libMachines[runtime.GOARCH].class, libMachines[runtime.GOARCH].data, elf.ET_EXEC, libMachines[runtime.GOARCH].machine), 0o644)
	rtestWrite(t, filepath.Join(tmp, "libshort.so"), "\x7fELF", 0o644)
	require.NoError(t, os.MkdirAll(filepath.Join(tmp, "libdir.so.1"), 0o755))

	t.Setenv("LD_LIBRARY_PATH", "relative:"+tmp) // read at construction
	r := NewLibResolver()
	require.NoError(t, r.(Preparer).Prepare(context.Background()))

	libc := rtestLibc(t)
	cases := []struct {
		name string
		want bool
	}{
		{"libc.so.6", true},
		{"libnope.so.9", false},
		{libc, true},
		{"/nonexistent/libc.so.6", false},
		{"libfake.so.1", true},
		{filepath.Join(tmp, "libfake.so.1"), true},
		{"liblink.so", true},
		{"libscript.so", false},     // a linker script is no shared object
		{"libwrongclass.so", false}, // ld.so skips other architectures
		{"libexec.so", false},
		{"libshort.so", false},
		{"libdir.so.1", false},
		{"libc.so", false}, // Debian's libc.so is an ld script (or absent)
		{"libc.so.", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Resolve(context.Background(), tc.name)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestLibResolverBadSpec(t *testing.T) {
	r := NewLibResolver()
	for _, name := range []string{"x86_64-linux-gnu/libc.so.6", "./libc.so.6", ""} {
		got, err := r.Resolve(context.Background(), name)
		assert.ErrorIs(t, err, grants.ErrBadSpec, "%q", name)
		assert.False(t, got)
	}
}

func TestLibResolverCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := NewLibResolver().Resolve(ctx, "libc.so.6")
	assert.ErrorIs(t, err, context.Canceled)
	assert.ErrorIs(t, NewLibResolver().(Preparer).Prepare(ctx), context.Canceled)
}

func TestLibResolverReadsLdSoConf(t *testing.T) {
	etc := t.TempDir()
	libs := t.TempDir()
	rtestWrite(t, filepath.Join(libs, "libconf.so.2"), rtestNativeELF(t), 0o644)
	rtestWrite(t, filepath.Join(etc, "ld.so.conf"), "include ld.so.conf.d/*.conf\n", 0o644)
	rtestWrite(t, filepath.Join(etc, "ld.so.conf.d", "x.conf"), libs+"\n", 0o644)

	r := newLibResolver("", filepath.Join(etc, "ld.so.conf"))
	got, err := r.Resolve(context.Background(), "libconf.so.2")
	require.NoError(t, err)
	assert.True(t, got)
}

func TestLibParseConf(t *testing.T) {
	etc := t.TempDir()
	rtestWrite(t, filepath.Join(etc, "ld.so.conf"), `# top
/opt/a
include ld.so.conf.d/*.conf   ld.so.extra
hwcap 0 nosegneg
/opt/b=libc5
relative/ignored
  /opt/c/   # trailing slash and comment
`, 0o644)
	rtestWrite(t, filepath.Join(etc, "ld.so.conf.d", "10-x.conf"), "/opt/d\ninclude ../ld.so.conf\n", 0o644) // a cycle
	rtestWrite(t, filepath.Join(etc, "ld.so.conf.d", "20-y.conf"), "/opt/e\n", 0o644)
	rtestWrite(t, filepath.Join(etc, "ld.so.conf.d", "ignored.txt"), "/opt/nope\n", 0o644)
	rtestWrite(t, filepath.Join(etc, "ld.so.extra"), "/opt/f\n", 0o644)

	got := libParseConf(filepath.Join(etc, "ld.so.conf"), 0, map[string]bool{})
	assert.Equal(t, []string{"/opt/a", "/opt/d", "/opt/e", "/opt/f", "/opt/b", "/opt/c"}, got)
	assert.Empty(t, libParseConf(filepath.Join(etc, "missing.conf"), 0, map[string]bool{}))
}

func TestLibDefaultDirs(t *testing.T) {
	assert.Equal(t, []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib", "/lib64", "/usr/lib64"}, libDefaultDirs("amd64"))
	assert.Equal(t, []string{"/lib", "/usr/lib", "/lib64", "/usr/lib64"}, libDefaultDirs("wasm"))
}

func TestLibHeaderOK(t *testing.T) {
	cases := []struct {
		name   string
		hdr    string
		goarch string
		want   bool
	}{
		{"amd64", rtestELF(elf.ELFCLASS64, elf.ELFDATA2LSB, elf.ET_DYN, elf.EM_X86_64), "amd64", true},
		{"arm64 on amd64", rtestELF(elf.ELFCLASS64, elf.ELFDATA2LSB, elf.ET_DYN, elf.EM_AARCH64), "amd64", false},
		{"s390x big endian", rtestELF(elf.ELFCLASS64, elf.ELFDATA2MSB, elf.ET_DYN, elf.EM_S390), "s390x", true},
		{"ppc64 byte order", rtestELF(elf.ELFCLASS64, elf.ELFDATA2LSB, elf.ET_DYN, elf.EM_PPC64), "ppc64", false},
		{"executable", rtestELF(elf.ELFCLASS64, elf.ELFDATA2LSB, elf.ET_EXEC, elf.EM_X86_64), "amd64", false},
		{"unknown port takes any", rtestELF(elf.ELFCLASS32, elf.ELFDATA2LSB, elf.ET_DYN, elf.EM_386), "wasm", true},
		{"not elf", "GROUP ( /lib/libc.so.6 ) padding", "amd64", false},
		{"short", "\x7fELF", "amd64", false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, libHeaderOK([]byte(tc.hdr), tc.goarch), tc.name)
	}
}

func BenchmarkResolveLib(b *testing.B) {
	r := NewLibResolver()
	for _, name := range []string{"libc.so.6", "libnope.so.9"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Resolve(ctx, name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
