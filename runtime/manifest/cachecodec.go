package manifest

// The binary form of a cached Manifest. It is written and read by hand,
// not with encoding/json or gob, because reading it is the whole point
// of the cache: a 10,000-tool Manifest decodes in a few milliseconds,
// with a handful of large allocations (every string is a substring of
// one, every Parameters a slice of one buffer).
//
// An entry is
//
//	magic    8 bytes, cacheMagic
//	key      32 bytes, the SHA-256 it is named by (cacheKey)
//	lengths  3 uvarints: the strings, the parameters and the structure
//	strings  every string's bytes, in the order the structure uses them
//	params   every Parameters' bytes, likewise
//	struct   the Manifest's fields in declaration order (below)
//	sum      4 bytes, CRC-32C of everything before it, little-endian
//
// In the structure, a string is its length (its bytes being the next
// ones in strings), and Parameters likewise in params; integers are
// varints (zigzag for signed ones), pointers and nil-able slices and maps
// a count or flag that says nil apart from empty, booleans a flag bit,
// a Config map its entries sorted by key (and an Upstream's Env is
// sorted by name, as the checks leave it), and a Position's file a flag
// for "the same file as the Position before" (they all are) or a new
// name. Every value has exactly one encoding (shortest varints, no stray
// bits, keys strictly increasing, every byte of every section used), so
// the decoder accepts only what the encoder writes: decodeEntry(b)
// succeeds only if encodeEntry of its result is b again
// (FuzzManifestCacheDecode).
//
// The decoder is written for hostile bytes: every read is bounds-checked,
// every count is checked against what is left before anything is
// allocated and against the limits the manifest was parsed within, and
// a failure anywhere is an error, never a panic.

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/crc32"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gate-dev/gate/internal/grants"
)

// cacheMagic starts every entry.
const cacheMagic = "gateMC\x00\x08"

// entry flag bits of Runtime's pointers, of Skills' booleans, of an
// Upstream's pointers and of a Probe's budget and proxy.
const (
	rtTTL = 1 << iota
	rtGrace
	rtBudget
	rtMemory
	rtCacheDir
	rtAll = 1<<iota - 1

	skAllowedSet = 1 << 0
	skAllowed    = 1 << 1
	skFollow     = 1 << 2
	skAll        = 1<<3 - 1

	upPrefix      = 1 << 0
	upCallTimeout = 1 << 1
	upBreaker     = 1 << 2
	upTransport   = 1 << 3
	upPin         = 1 << 4
	upOAuth       = 1 << 5
	upAll         = 1<<6 - 1

	brFailures = 1 << 0
	brWindow   = 1 << 1
	brCooldown = 1 << 2
	brAll      = 1<<3 - 1

	prBudget = 1 << 0
	prProxy  = 1 << 1
	prAll    = 1<<2 - 1

	poFailure = 1 << 0
	poSuccess = 1 << 1
	poRetry   = 1 << 2
	poHold    = 1 << 3
	poAll     = 1<<4 - 1
)

// pinBytes encodes an Upstream's Pin, when it is not PinOff, and
// pinOfByte decodes it.
var (
	pinBytes  = map[Pin]byte{PinOn: 1, PinStrict: 2}
	pinOfByte = []Pin{PinOff, PinOn, PinStrict}
)

var errBadEntry = errors.New("manifest cache: bad entry")

// cenc encodes a Manifest into its three sections.
type cenc struct {
	strs, params, st []byte
	file             string // the file of the last Position
}

// encodeEntry returns the entry for m under key.
func encodeEntry(m *Manifest, key [sha256.Size]byte) []byte {
	e := &cenc{
		strs:   make([]byte, 0, 64<<10),
		params: make([]byte, 0, 16<<10),
		st:     make([]byte, 0, 16<<10),
	}
	e.manifest(m)
	n := len(cacheMagic) + len(key) + 3*binary.MaxVarintLen64 + len(e.strs) + len(e.params) + len(e.st) + cacheSumSize
	b := make([]byte, 0, n)
	b = append(b, cacheMagic...)
	b = append(b, key[:]...)
	b = binary.AppendUvarint(b, uint64(len(e.strs)))
	b = binary.AppendUvarint(b, uint64(len(e.params)))
	b = binary.AppendUvarint(b, uint64(len(e.st)))
	b = append(b, e.strs...)
	b = append(b, e.params...)
	b = append(b, e.st...)
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

// The checksum: CRC-32C, which every single-byte change and every burst
// of up to 32 bits changes, and which costs a tenth of a millisecond for
// a 10,000-tool entry where a SHA-256 took 4 (the entries' directory is
// private, so what it guards against is damage, not forgery; the key
// inside guards against an entry under another's name).
const cacheSumSize = 4

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

func (e *cenc) uvarint(v uint64) { e.st = binary.AppendUvarint(e.st, v) }
func (e *cenc) varint(v int64)   { e.st = binary.AppendVarint(e.st, v) }
func (e *cenc) byte(v byte)      { e.st = append(e.st, v) }

func (e *cenc) str(s string) {
	e.uvarint(uint64(len(s)))
	e.strs = append(e.strs, s...)
}

// count writes the length of a nil-able slice or map: 0 for nil, else
// length+1.
func (e *cenc) count(n int, isNil bool) {
	if isNil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(n) + 1)
}

func (e *cenc) list(l []string) {
	e.count(len(l), l == nil)
	for _, s := range l {
		e.str(s)
	}
}

func (e *cenc) pos(p Position) {
	if p.File == e.file {
		e.byte(0)
	} else {
		e.byte(1)
		e.str(p.File)
		e.file = p.File
	}
	e.varint(int64(p.Line))
	e.varint(int64(p.Col))
}

func (e *cenc) manifest(m *Manifest) {
	e.str(m.Path)

	rt := &m.Runtime
	var flags byte
	for i, set := range []bool{rt.TTL != nil, rt.Grace != nil, rt.Budget != nil, rt.Memory != nil, rt.CacheDir != nil} {
		if set {
			flags |= 1 << i
		}
	}
	e.byte(flags)
	if rt.TTL != nil {
		e.varint(int64(*rt.TTL))
	}
	if rt.Grace != nil {
		e.varint(int64(*rt.Grace))
	}
	if rt.Budget != nil {
		e.varint(int64(*rt.Budget))
	}
	if rt.Memory != nil {
		e.uvarint(*rt.Memory)
	}
	if rt.CacheDir != nil {
		e.str(*rt.CacheDir)
	}
	e.str(rt.Python)
	e.varint(int64(rt.Concurrency))
	e.policy(rt.Policy)

	sk := &m.Skills
	e.list(sk.Paths)
	e.str(sk.Enforcement)
	flags = 0
	if sk.AllowedToolsRequired != nil {
		flags |= skAllowedSet
		if *sk.AllowedToolsRequired {
			flags |= skAllowed
		}
	}
	if sk.FollowOutsideLinks {
		flags |= skFollow
	}
	e.byte(flags)
	e.pos(sk.Pos)

	e.count(len(m.Tools), m.Tools == nil)
	for i := range m.Tools {
		t := &m.Tools[i]
		e.str(t.Name)
		e.str(t.Description)
		e.str(t.Toolset)
		e.count(len(t.Parameters), t.Parameters == nil)
		e.params = append(e.params, t.Parameters...)
		e.probe(t.Probe)
		e.policy(t.Policy)
		e.pos(t.Pos)
	}
	e.count(len(m.Servers), m.Servers == nil)
	for i := range m.Servers {
		s := &m.Servers[i]
		e.str(s.Name)
		e.str(s.Description)
		e.probe(s.Probe)
		e.policy(s.Policy)
		e.upstream(s.Upstream)
		e.pos(s.Pos)
	}
}

func (e *cenc) upstream(u *Upstream) {
	if u == nil {
		e.byte(0)
		return
	}
	e.byte(1)
	e.list(u.Command)
	e.count(len(u.Env), u.Env == nil)
	for _, v := range u.Env {
		e.str(v.Name)
		e.str(v.Value)
	}
	e.list(u.PassEnv)
	e.str(u.URL)
	e.count(len(u.Headers), u.Headers == nil)
	for _, h := range u.Headers {
		e.str(h.Name)
		e.str(h.Value)
	}
	var flags byte
	if u.Prefix != nil {
		flags |= upPrefix
	}
	if u.CallTimeout != nil {
		flags |= upCallTimeout
	}
	if u.Breaker != nil {
		flags |= upBreaker
	}
	if u.Transport != "" {
		flags |= upTransport
	}
	if u.Pin != PinOff {
		flags |= upPin
	}
	if u.OAuth != nil {
		flags |= upOAuth
	}
	e.byte(flags)
	if u.Prefix != nil {
		e.str(*u.Prefix)
	}
	if u.CallTimeout != nil {
		e.varint(int64(*u.CallTimeout))
	}
	if u.Breaker != nil {
		e.breaker(u.Breaker)
	}
	if u.Transport != "" {
		e.str(u.Transport)
	}
	if u.Pin != PinOff {
		e.byte(pinBytes[u.Pin])
	}
	if o := u.OAuth; o != nil {
		e.str(o.TokenURL)
		e.str(o.ClientID)
		e.str(o.ClientSecret)
		e.list(o.Scopes)
	}
	e.count(len(u.Tools), u.Tools == nil)
	for i := range u.Tools {
		r := &u.Tools[i]
		e.str(r.Name)
		e.str(r.Match)
		e.probe(r.Probe)
		e.pos(r.Pos)
	}
}

// policy writes a *Policy as a flag byte (0 for nil, else a bit for
// each key written) and the keys written.
func (e *cenc) policy(p *Policy) {
	if p == nil {
		e.byte(0)
		return
	}
	var flags byte
	for i, set := range []bool{p.FailureThreshold != 0, p.SuccessThreshold != 0, p.Retry != nil, p.HoldDown != nil} {
		if set {
			flags |= 1 << i
		}
	}
	e.byte(flags)
	if p.FailureThreshold != 0 {
		e.varint(int64(p.FailureThreshold))
	}
	if p.SuccessThreshold != 0 {
		e.varint(int64(p.SuccessThreshold))
	}
	if p.Retry != nil {
		e.varint(int64(*p.Retry))
	}
	if p.HoldDown != nil {
		e.varint(int64(*p.HoldDown))
	}
}

func (e *cenc) breaker(b *Breaker) {
	var flags byte
	if b.Failures != nil {
		flags |= brFailures
	}
	if b.Window != nil {
		flags |= brWindow
	}
	if b.Cooldown != nil {
		flags |= brCooldown
	}
	e.byte(flags)
	if b.Failures != nil {
		e.varint(int64(*b.Failures))
	}
	if b.Window != nil {
		e.varint(int64(*b.Window))
	}
	if b.Cooldown != nil {
		e.varint(int64(*b.Cooldown))
	}
}

func (e *cenc) probe(p *Probe) {
	if p == nil {
		e.byte(0)
		return
	}
	e.byte(1)
	e.str(p.Standard)
	e.str(p.Module)
	e.str(p.SHA256)
	e.count(len(p.Config), p.Config == nil)
	keys := make([]string, 0, len(p.Config))
	for k := range p.Config {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		e.str(k)
		e.str(p.Config[k])
	}
	e.list(p.Env)
	e.list(p.Dial)
	e.list(p.Import)
	// Net's fields where they were when they were Probe's own, so that
	// the format (and every entry written before Net) is unchanged: a nil
	// Net is written as all of them zero, as no non-nil Net is
	// (ProbeNet.ptr).
	var net ProbeNet
	if p.Net != nil {
		net = *p.Net
	}
	e.list(net.HTTP)
	e.secrets(net.Secrets)
	e.list(net.Insecure)
	e.str(net.TLSCA)
	var flags byte
	if p.Budget != nil {
		flags |= prBudget
	}
	if net.Proxy {
		flags |= prProxy
	}
	e.byte(flags)
	if p.Budget != nil {
		e.varint(int64(*p.Budget))
	}
	e.pos(p.Pos)
}

// secrets writes a secrets grant: its names sorted, each with its list
// of destinations.
func (e *cenc) secrets(m map[string][]string) {
	e.count(len(m), m == nil)
	for _, name := range slices.Sorted(maps.Keys(m)) {
		e.str(name)
		e.list(m[name])
	}
}

// decodeEntry returns the Manifest in entry b, which must be for key and
// hold a manifest within lim (resolved here), or errBadEntry.
func decodeEntry(b []byte, key [sha256.Size]byte, lim Limits) (*Manifest, error) {
	m, stored, err := decodeEntryKey(b, lim)
	if err != nil || stored != key {
		return nil, errBadEntry
	}
	return m, nil
}

// decodeEntryKey returns the Manifest in entry b and the key b is for,
// or errBadEntry.
func decodeEntryKey(b []byte, lim Limits) (_ *Manifest, key [sha256.Size]byte, _ error) {
	head := len(cacheMagic) + len(key)
	if len(b) < head+3+cacheSumSize || string(b[:len(cacheMagic)]) != cacheMagic {
		return nil, key, errBadEntry
	}
	body := b[:len(b)-cacheSumSize]
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(b[len(body):]) {
		return nil, key, errBadEntry
	}
	copy(key[:], b[len(cacheMagic):head])
	d := &cdec{st: body[head:], lim: lim.resolved()}
	var lens [3]int
	for i := range lens {
		lens[i] = d.length()
	}
	if d.bad || lens[0]+lens[1]+lens[2] != len(d.st)-d.i {
		return nil, key, errBadEntry
	}
	rest := d.st[d.i:]
	d.s = string(rest[:lens[0]])
	if lens[1] > 0 {
		d.p = bytes.Clone(rest[lens[0] : lens[0]+lens[1]])
	}
	d.st, d.i = rest[lens[0]+lens[1]:], 0
	m := d.manifest()
	if d.bad || d.i != len(d.st) || d.si != len(d.s) || d.pi != len(d.p) {
		return nil, key, errBadEntry
	}
	return m, key, nil
}

// cdec decodes the structure section st, taking strings from s and
// parameters from p in turn. The first problem sets bad; every read after
// it returns a zero value, and the result is thrown away.
type cdec struct {
	st  []byte
	i   int
	s   string
	si  int
	p   []byte
	pi  int
	lim Limits
	bad bool

	file   string  // the file of the last Position
	probes []Probe // where the next Probe is taken from
	durs   []time.Duration
}

func (d *cdec) fail() { d.bad = true; d.i = len(d.st) }

// uvarint reads a varint in its shortest form.
func (d *cdec) uvarint() uint64 {
	if d.i < len(d.st) && d.st[d.i] < 0x80 {
		v := d.st[d.i]
		d.i++
		return uint64(v)
	}
	v, n := binary.Uvarint(d.st[d.i:])
	if n <= 0 || d.st[d.i+n-1] == 0 {
		d.fail()
		return 0
	}
	d.i += n
	return v
}

// varint reads a zigzag varint in its shortest form.
func (d *cdec) varint() int64 {
	u := d.uvarint()
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// int reads a varint that must fit an int.
func (d *cdec) int() int {
	v := d.varint()
	if int64(int(v)) != v {
		d.fail()
		return 0
	}
	return int(v)
}

// length reads a uvarint of at most what remains of b: the length of
// something that follows.
func (d *cdec) length() int {
	v := d.uvarint()
	if v > uint64(len(d.st)) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *cdec) byte(max byte) byte {
	if d.i >= len(d.st) || d.st[d.i] > max {
		d.fail()
		return 0
	}
	v := d.st[d.i]
	d.i++
	return v
}

// str takes the next string.
func (d *cdec) str() string {
	v := d.uvarint()
	if v > uint64(len(d.s)-d.si) {
		d.fail()
		return ""
	}
	s := d.s[d.si : d.si+int(v)]
	d.si += int(v)
	return s
}

// count reads the length of a nil-able slice or map of at most max
// elements, each of which takes at least one byte of what remains.
func (d *cdec) count(max int) (n int, isNil bool) {
	v := d.uvarint()
	if v == 0 {
		return 0, true
	}
	v--
	if v > uint64(len(d.st)-d.i) || v > uint64(max) {
		d.fail()
		return 0, false
	}
	return int(v), false
}

func (d *cdec) list(max int) []string {
	n, isNil := d.count(max)
	if isNil || d.bad {
		return nil
	}
	l := make([]string, n)
	for i := range l {
		l[i] = d.str()
	}
	return l
}

// secrets reads what cenc.secrets writes: at most MaxSecretGrants names,
// strictly increasing, each with at least one destination, as the
// checker leaves a secrets grant.
func (d *cdec) secrets() map[string][]string {
	n, isNil := d.count(grants.MaxSecretGrants)
	if isNil || d.bad {
		return nil
	}
	m := make(map[string][]string, n)
	prev := ""
	for i := range n {
		name := d.str()
		dests := d.list(d.lim.MaxArrayLen)
		if (i > 0 && name <= prev) || len(dests) == 0 {
			d.fail()
			return nil
		}
		m[name] = dests
		prev = name
	}
	return m
}

// description takes a description, which the limits bound.
func (d *cdec) description() string {
	s := d.str()
	if len(s) > d.lim.MaxDescription {
		d.fail()
	}
	return s
}

// toolset takes a tool's toolset: "" or a name the checks accept.
func (d *cdec) toolset() string {
	s := d.str()
	if s != "" && !validToolset(s) {
		d.fail()
	}
	return s
}

func (d *cdec) pos() Position {
	var p Position
	if d.byte(1) == 1 {
		f := d.str()
		if f == d.file {
			d.fail() // not the shortest form
		}
		d.file = f
	}
	p.File = d.file
	p.Line = d.int()
	p.Col = d.int()
	return p
}

// dur returns a pointer to a duration, from a block allocated for many.
func (d *cdec) dur(v time.Duration) *time.Duration {
	if len(d.durs) == 0 {
		d.durs = make([]time.Duration, 64)
	}
	p := &d.durs[0]
	d.durs = d.durs[1:]
	*p = v
	return p
}

func (d *cdec) manifest() *Manifest {
	m := &Manifest{Path: d.str()}

	rt := &m.Runtime
	flags := d.byte(rtAll)
	if flags&rtTTL != 0 {
		rt.TTL = d.dur(time.Duration(d.varint()))
	}
	if flags&rtGrace != 0 {
		rt.Grace = d.dur(time.Duration(d.varint()))
	}
	if flags&rtBudget != 0 {
		rt.Budget = d.dur(time.Duration(d.varint()))
	}
	if flags&rtMemory != 0 {
		v := d.uvarint()
		rt.Memory = &v
	}
	if flags&rtCacheDir != 0 {
		v := d.str()
		rt.CacheDir = &v
	}
	rt.Python = d.str()
	rt.Concurrency = d.int()
	rt.Policy = d.policy()

	sk := &m.Skills
	sk.Paths = d.list(d.lim.MaxArrayLen)
	sk.Enforcement = d.str()
	flags = d.byte(skAll)
	switch {
	case flags&skAllowedSet != 0:
		v := flags&skAllowed != 0
		sk.AllowedToolsRequired = &v
	case flags&skAllowed != 0:
		d.fail() // a value without the pointer
	}
	sk.FollowOutsideLinks = flags&skFollow != 0
	sk.Pos = d.pos()

	n, isNil := d.count(d.lim.MaxTools)
	if !isNil && !d.bad {
		m.Tools = make([]Tool, n)
		for i := range m.Tools {
			if d.bad {
				return nil
			}
			t := &m.Tools[i]
			t.Name = d.str()
			t.Description = d.description()
			t.Toolset = d.toolset()
			t.Parameters = d.params()
			t.Probe = d.probe(n - i)
			t.Policy = d.policy()
			t.Pos = d.pos()
		}
	}
	n, isNil = d.count(d.lim.MaxServers)
	if !isNil && !d.bad {
		m.Servers = make([]Server, n)
		for i := range m.Servers {
			if d.bad {
				return nil
			}
			s := &m.Servers[i]
			s.Name = d.str()
			s.Description = d.description()
			s.Probe = d.probe(n - i)
			s.Policy = d.policy()
			s.Upstream = d.upstream()
			s.Pos = d.pos()
		}
	}
	return m
}

// upstream decodes a server's *Upstream. Its counts are bounded as
// parsing bounds what they stand for: the command (an array) by
// maxCommandArgs and MaxArrayLen, env (a table) by MaxKeysPerTable,
// pass_env by MaxArrayLen, and the rules (an array too) by MaxTools and
// MaxArrayLen.
func (d *cdec) upstream() *Upstream {
	if d.byte(1) == 0 || d.bad {
		return nil
	}
	u := &Upstream{}
	u.Command = d.list(min(maxCommandArgs, d.lim.MaxArrayLen))
	if n, isNil := d.count(d.lim.MaxKeysPerTable); !isNil && !d.bad {
		u.Env = make([]EnvVar, n)
		for i := range u.Env {
			v := &u.Env[i]
			v.Name, v.Value = d.str(), d.str()
			if i > 0 && v.Name <= u.Env[i-1].Name {
				d.fail() // written sorted, each once, as the checks leave them
				return nil
			}
		}
	}
	u.PassEnv = d.list(d.lim.MaxArrayLen)
	u.URL = d.str()
	if n, isNil := d.count(maxHeaders); !isNil && !d.bad {
		u.Headers = make([]Header, n)
		for i := range u.Headers {
			h := &u.Headers[i]
			h.Name, h.Value = d.str(), d.str()
			if i > 0 && strings.ToLower(h.Name) <= strings.ToLower(u.Headers[i-1].Name) {
				d.fail() // written sorted, each once, as the checks leave them
				return nil
			}
		}
	}
	flags := d.byte(upAll)
	if flags&upPrefix != 0 {
		v := d.str()
		u.Prefix = &v
	}
	if flags&upCallTimeout != 0 {
		u.CallTimeout = d.dur(time.Duration(d.varint()))
	}
	if flags&upBreaker != 0 {
		u.Breaker = d.breaker()
	}
	if flags&upTransport != 0 {
		u.Transport = d.str()
	}
	if flags&upPin != 0 {
		u.Pin = pinOfByte[d.byte(byte(len(pinOfByte)-1))]
		if u.Pin == PinOff {
			d.fail() // PinOff is written as no flag
		}
	}
	if flags&upOAuth != 0 {
		u.OAuth = &OAuth{TokenURL: d.str(), ClientID: d.str(), ClientSecret: d.str(), Scopes: d.list(maxScopes)}
	}
	if n, isNil := d.count(min(d.lim.MaxTools, d.lim.MaxArrayLen)); !isNil && !d.bad {
		u.Tools = make([]UpstreamTool, n)
		for i := range u.Tools {
			if d.bad {
				return nil
			}
			r := &u.Tools[i]
			r.Name = d.str()
			r.Match = d.str()
			r.Probe = d.probe(n - i)
			r.Pos = d.pos()
		}
	}
	return u
}

// breaker takes the next Breaker.
func (d *cdec) breaker() *Breaker {
	b := &Breaker{}
	flags := d.byte(brAll)
	if flags&brFailures != 0 {
		n := d.int()
		b.Failures = &n
	}
	if flags&brWindow != 0 {
		b.Window = d.dur(time.Duration(d.varint()))
	}
	if flags&brCooldown != 0 {
		b.Cooldown = d.dur(time.Duration(d.varint()))
	}
	return b
}

// params takes the next Parameters: a slice of the parameters section
// whose capacity ends with it, so that an append copies rather than
// overwrites the next tool's.
func (d *cdec) params() json.RawMessage {
	v := d.uvarint()
	switch {
	case v == 0 || d.bad:
		return nil
	case v-1 > uint64(len(d.p)-d.pi):
		d.fail()
		return nil
	case v == 1:
		return json.RawMessage{}
	}
	n := int(v - 1)
	p := d.p[d.pi : d.pi+n : d.pi+n]
	d.pi += n
	return p
}

// probe decodes a *Probe; left is how many more entries of the list
// being decoded may have one, the size of the block to take it from.
// policy decodes a *Policy, each key within what the checks accept (a
// key at its "not written" value would encode otherwise).
func (d *cdec) policy() *Policy {
	flags := d.byte(poAll)
	if flags == 0 || d.bad {
		return nil
	}
	p := &Policy{}
	threshold := func() int {
		n := d.int()
		if n < 1 || n > maxThreshold {
			d.fail()
		}
		return n
	}
	if flags&poFailure != 0 {
		p.FailureThreshold = threshold()
	}
	if flags&poSuccess != 0 {
		p.SuccessThreshold = threshold()
	}
	if flags&poRetry != 0 {
		if p.Retry = d.dur(time.Duration(d.varint())); *p.Retry <= 0 {
			d.fail()
		}
	}
	if flags&poHold != 0 {
		if p.HoldDown = d.dur(time.Duration(d.varint())); *p.HoldDown < 0 {
			d.fail()
		}
	}
	return p
}

func (d *cdec) probe(left int) *Probe {
	if d.byte(1) == 0 {
		return nil
	}
	if len(d.probes) == 0 {
		d.probes = make([]Probe, min(left, 1024))
	}
	p := &d.probes[0]
	d.probes = d.probes[1:]
	p.Standard = d.str()
	p.Module = d.str()
	p.SHA256 = d.str()
	if n, isNil := d.count(d.lim.MaxKeysPerTable); !isNil && !d.bad {
		p.Config = make(map[string]string, n)
		prev := ""
		for i := range n {
			k := d.str()
			if i > 0 && k <= prev {
				d.fail() // keys are written sorted, each once
				return nil
			}
			p.Config[k] = d.str()
			prev = k
		}
	}
	p.Env = d.list(d.lim.MaxArrayLen)
	p.Dial = d.list(d.lim.MaxArrayLen)
	p.Import = d.list(d.lim.MaxArrayLen)
	var net ProbeNet
	net.HTTP = d.list(d.lim.MaxArrayLen)
	net.Secrets = d.secrets()
	net.Insecure = d.list(d.lim.MaxArrayLen)
	net.TLSCA = d.str()
	flags := d.byte(prAll)
	if flags&prBudget != 0 {
		p.Budget = d.dur(time.Duration(d.varint()))
	}
	net.Proxy = flags&prProxy != 0
	p.Net = net.ptr() // nil when none is set, as the checker leaves it
	p.Pos = d.pos()
	return p
}
