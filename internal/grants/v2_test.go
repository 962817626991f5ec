package grants

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestGrantsV2Errors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		grants Grants
		want   string
	}{
		{Grants{HTTP: []string{""}}, `http grant "": empty URL prefix`},
		{Grants{HTTP: []string{"https://api.example.com/", "api.example.com"}}, `http grant "api.example.com": want http://host/path, https://host/path or unix:/socket:/path`},
		{Grants{HTTP: []string{"https://a!b.example/"}}, `http grant "https://a!b.example/": host "a!b.example": '!' is not allowed in a host name`},
		{Grants{HTTP: []string{"https://[fd00::1/8]/"}}, `http grant "https://[fd00::1/8]/": prefix "fd00::1/8" has host bits set: write fd00::/8`},
		{Grants{Secrets: boundTo("K*", "x:1")}, `secret grant "K*": secrets are named exactly; no patterns`},
		{Grants{Secrets: map[string][]string{"K": {"x:1"}, "": {"x:1"}}}, `secret grant "": empty name`},
		{Grants{Secrets: boundTo("9K", "x:1")}, `secret grant "9K": a secret's name starts with a letter or _, as in ${secret:NAME}`},
		{Grants{Secrets: boundTo("K")}, `secret grant "K": no destination: name where it may be sent, as dial and http grants are written ("127.0.0.1:6379", "https://api.example.com/v1/")`},
		{Grants{Secrets: boundTo("K", "")}, `secret grant "K": destination "": empty destination`},
		{Grants{Secrets: boundTo("K", "127.1:6379")}, `secret grant "K": destination "127.1:6379": "127.1": an IPv4 pattern has four octets, each 0-255 or *`},
		{Grants{Secrets: boundTo("K", "https://api.example.com/v1?x")}, `secret grant "K": destination "https://api.example.com/v1?x": a grant matches scheme, host, port and path; it has no query`},
		{Grants{Secrets: boundTo("K", "tls:unix:/run/x.sock")}, `secret grant "K": destination "tls:unix:/run/x.sock": TLS over a unix socket is not supported`},
		{Grants{Secrets: boundTo("K", "unix:relative.sock")}, `secret grant "K": destination "unix:relative.sock": the socket path must be absolute`},
		{Grants{Insecure: []string{"localhost"}}, `insecure grant "localhost": want host:port or unix:/path`},
		{Grants{Insecure: []string{":8443"}}, `insecure grant ":8443": empty host (write "*:8443" to allow any host)`},
		{Grants{Insecure: []string{"127.1:443"}}, `insecure grant "127.1:443": "127.1": an IPv4 pattern has four octets, each 0-255 or *`},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			_, err := tt.grants.Compile()
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
		})
	}
}

func TestGrantsV2Policy(t *testing.T) {
	t.Parallel()
	p, err := Grants{
		HTTP:     []string{"https://api.example.com/v1/"},
		Secrets:  boundTo("OPENAI_API_KEY", "https://api.example.com/v1/"),
		Insecure: []string{"localhost:8443", "*.internal.example:*"},
	}.Compile()
	require.NoError(t, err)
	assert.True(t, p.AllowSecret("OPENAI_API_KEY"))
	assert.False(t, p.AllowSecret("OPENAI_API"))
	assert.False(t, p.AllowEnv("OPENAI_API_KEY"))
	assert.True(t, p.AllowInsecure("localhost:8443"))
	assert.True(t, p.AllowInsecure("LocalHost.:8443"))
	assert.True(t, p.AllowInsecure("db.internal.example:5432"))
	assert.False(t, p.AllowInsecure("localhost:443"))
	assert.False(t, p.AllowInsecure("127.1:8443"))
	assert.False(t, p.AllowDial("localhost:8443"), "insecure grants no connection by itself")

	// An https target's Addr is what the insecure grant is asked about.
	target, err := ParseHTTPTarget("https://LOCALHOST:8443/x")
	require.NoError(t, err)
	assert.Equal(t, "localhost:8443", target.Addr())
	assert.True(t, p.AllowInsecure(target.Addr()))
	target, err = ParseHTTPTarget("http://[::1]/")
	require.NoError(t, err)
	assert.Equal(t, "[::1]:80", target.Addr())
	target, err = ParseHTTPTarget("unix:/run/x.sock:/")
	require.NoError(t, err)
	assert.Equal(t, "unix:/run/x.sock", target.Addr())

	zero, err := Grants{}.Compile()
	require.NoError(t, err)
	assert.False(t, zero.AllowSecret("OPENAI_API_KEY"))
	assert.False(t, zero.AllowInsecure("localhost:8443"))
	assert.Empty(t, zero.Secrets())
	var nilPolicy *Policy
	assert.False(t, nilPolicy.AllowSecret("K"))
	assert.False(t, nilPolicy.AllowInsecure("localhost:8443"))
	assert.Nil(t, nilPolicy.Secrets())
}
