package mcptest

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ShortTokens is an OAuth token endpoint (client-credentials grant) whose
// tokens live Life, and the bearer check of an upstream that takes them:
// Guard answers 401 to a request without a token it issued that is still
// alive, Grace past its life (a token asked for on time may be in flight).
type ShortTokens struct {
	Life, Grace time.Duration
	mu          sync.Mutex
	issued      map[string]time.Time // token: when it expires
	asked       atomic.Int64
}

// Asked is how many tokens were asked for.
func (s *ShortTokens) Asked() int64 { return s.asked.Load() }

func (s *ShortTokens) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.ParseForm() != nil || r.PostForm.Get("grant_type") != "client_credentials" {
		http.Error(w, `{"error":"invalid_request"}`, http.StatusBadRequest)
		return
	}
	n := s.asked.Add(1)
	token := fmt.Sprintf("short-token-%d", n)
	s.mu.Lock()
	if s.issued == nil {
		s.issued = map[string]time.Time{}
	}
	s.issued[token] = time.Now().Add(s.Life)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":%d}`, token, int(s.Life.Seconds()))
}

// Guard wraps next with the bearer check.
func (s *ShortTokens) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		s.mu.Lock()
		expires, ok := s.issued[token]
		s.mu.Unlock()
		if !ok || time.Now().After(expires.Add(s.Grace)) {
			w.Header().Set("WWW-Authenticate", `Bearer error="invalid_token"`)
			http.Error(w, "no live token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}
