package grants

import "testing"

// BenchmarkPolicy measures the grant check that every env, dial and import
// call makes before anything else. Exact grants must stay one map lookup
// with no allocation.
func BenchmarkPolicy(b *testing.B) {
	p, err := Grants{
		Env:    []string{"SERP_API_KEY", "AWS_*"},
		Dial:   []string{"localhost:5432", "127.0.0.1:*", "unix:/var/run/docker.sock", "[::1]:6379", "*.internal.example:443", "10.0.0.*:5432"},
		Import: []string{"py:psycopg2", "bin:*", "lib:libpq.so.5"},
	}.Compile()
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		want bool
		f    func() bool
	}{
		{"env/exact", true, func() bool { return p.AllowEnv("SERP_API_KEY") }},
		{"env/glob", true, func() bool { return p.AllowEnv("AWS_SECRET") }},
		{"dial/exact", true, func() bool { return p.AllowDial("localhost:5432") }},
		{"dial/unix", true, func() bool { return p.AllowDial("unix:/var/run/docker.sock") }},
		{"dial/ipv6", true, func() bool { return p.AllowDial("[::1]:6379") }},
		{"dial/anyport", true, func() bool { return p.AllowDial("127.0.0.1:6379") }},
		{"dial/wildcard", true, func() bool { return p.AllowDial("db.internal.example:443") }},
		{"dial/ippattern", true, func() bool { return p.AllowDial("10.0.0.5:5432") }},
		{"dial/denied", false, func() bool { return p.AllowDial("example.com:80") }},
		{"import/exact", true, func() bool { return p.AllowImport("py:psycopg2") }},
		{"import/glob", true, func() bool { return p.AllowImport("bin:docker") }},
		{"import/denied", false, func() bool { return p.AllowImport("py:os") }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			if tc.f() != tc.want {
				b.Fatalf("got %v, want %v", !tc.want, tc.want)
			}
			b.ReportAllocs()
			for b.Loop() {
				tc.f()
			}
		})
	}
}
