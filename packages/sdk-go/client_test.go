package burnbox_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	burnbox "burnbox-go"
)

// recorded is one request the test server received.
type recorded struct {
	method, path, rawPath string
	query                 url.Values
	header                http.Header
	body                  []byte
}

// recorder holds what a test server received, in order.
type recorder struct {
	mu   sync.Mutex
	reqs []recorded
}

func (r *recorder) add(x recorded) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reqs = append(r.reqs, x)
}

func (r *recorder) at(i int) recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reqs[i]
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.reqs)
}

// server answers every request with status and body, and records what it received.
func server(t *testing.T, status int, body string) (*burnbox.Client, *recorder) {
	t.Helper()
	got := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got.add(recorded{r.Method, r.URL.Path, r.URL.EscapedPath(), r.URL.Query(), r.Header.Clone(), b})
		if status == http.StatusTooManyRequests {
			w.Header().Set("Retry-After", "3")
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	c, err := burnbox.New(srv.URL, burnbox.WithAPIKey("bb_test_key"))
	if err != nil {
		t.Fatal(err)
	}
	return c, got
}

const inboxJSON = `{"id":"0193a0c4-0000-7000-8000-000000000001","address":"signup-1","full_address":"signup-1@qa.example",
"domain_id":"d","domain_assignment_id":"a","org_id":"o","team_id":"t","created_by":"u","private":false,"is_active":true,
"email_count":0,"unread_count":0,"smtp_behaviour":null,"created_at":"2026-12-02T05:00:00.000Z","expires_at":"2026-12-02T06:00:00.000Z"}`

func TestNewAddsTheAPIPrefixOnce(t *testing.T) {
	for in, want := range map[string]string{
		"https://bb.example":          "https://bb.example/api/v1",
		"https://bb.example/":         "https://bb.example/api/v1",
		"https://bb.example/api/v1":   "https://bb.example/api/v1",
		"https://bb.example/api/v1/":  "https://bb.example/api/v1",
		"http://127.0.0.1:8080/bb":    "http://127.0.0.1:8080/bb/api/v1",
		"https://bb.example/?x=1#top": "https://bb.example/api/v1",
	} {
		c, err := burnbox.New(in)
		if err != nil {
			t.Fatalf("New(%q): %v", in, err)
		}
		if got := c.BaseURL(); got != want {
			t.Errorf("New(%q).BaseURL() = %q, want %q", in, got, want)
		}
	}
	for _, bad := range []string{"", "bb.example", "ftp://bb.example", "http://"} {
		if _, err := burnbox.New(bad); err == nil {
			t.Errorf("New(%q): no error", bad)
		}
	}
	if _, err := burnbox.New("https://bb.example", burnbox.WithAPIKey("bb_x\r\nX-Evil: 1")); err == nil {
		t.Error("a credential with a line break was accepted")
	}
}

func TestNewFromEnv(t *testing.T) {
	t.Setenv(burnbox.EnvURL, "")
	t.Setenv(burnbox.EnvAPIKey, "bb_k")
	if _, err := burnbox.NewFromEnv(); err == nil || !strings.Contains(err.Error(), "BURNBOX_URL") {
		t.Errorf("without BURNBOX_URL: %v", err)
	}
	t.Setenv(burnbox.EnvURL, "https://bb.example")
	t.Setenv(burnbox.EnvAPIKey, "")
	if _, err := burnbox.NewFromEnv(); err == nil || !strings.Contains(err.Error(), "BURNBOX_API_KEY") {
		t.Errorf("without BURNBOX_API_KEY: %v", err)
	}
	t.Setenv(burnbox.EnvAPIKey, "eyJhbGciOi")
	if _, err := burnbox.NewFromEnv(); err == nil || !strings.Contains(err.Error(), "bb_") {
		t.Errorf("with a key that is not bb_: %v", err)
	}
	t.Setenv(burnbox.EnvAPIKey, "bb_k")
	c, err := burnbox.NewFromEnv()
	if err != nil || c.BaseURL() != "https://bb.example/api/v1" {
		t.Errorf("NewFromEnv() = %v, %v", c, err)
	}
}

func TestCreateInboxSendsTheBodyAndTheKey(t *testing.T) {
	c, got := server(t, http.StatusCreated, inboxJSON)
	inbox, err := c.CreateInbox(context.Background(), burnbox.CreateInboxParams{DomainAssignmentID: "a", Alias: "signup-1", TTL: "15m"})
	if err != nil {
		t.Fatal(err)
	}
	if inbox.FullAddress != "signup-1@qa.example" || !inbox.IsActive || inbox.ExpiresAt.Sub(inbox.CreatedAt) != time.Hour {
		t.Errorf("inbox = %+v", inbox)
	}
	r := got.at(0)
	if r.method != "POST" || r.path != "/api/v1/inboxes" {
		t.Errorf("sent %s %s", r.method, r.path)
	}
	if a := r.header.Get("Authorization"); a != "Bearer bb_test_key" {
		t.Errorf("Authorization = %q", a)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("Content-Type = %q", ct)
	}
	if ua := r.header.Get("User-Agent"); ua != "burnbox-go/"+burnbox.Version {
		t.Errorf("User-Agent = %q", ua)
	}
	var body map[string]any
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	// zero fields are left out, so the server's defaults apply
	if want := map[string]any{"domain_assignment_id": "a", "alias": "signup-1", "ttl": "15m"}; !reflect.DeepEqual(body, want) {
		t.Errorf("body = %v, want %v", body, want)
	}

	if _, err := c.CreateInbox(context.Background(), burnbox.CreateInboxParams{}); err == nil || got.count() != 1 {
		t.Errorf("CreateInbox without a domain assignment: %v, %d requests", err, got.count())
	}
}

func TestTheInboxAndEmailCalls(t *testing.T) {
	ctx := context.Background()
	t.Run("GetInbox escapes its id", func(t *testing.T) {
		c, got := server(t, http.StatusOK, inboxJSON)
		if _, err := c.GetInbox(ctx, "a/b?c"); err != nil {
			t.Fatal(err)
		}
		if p := got.at(0).rawPath; p != "/api/v1/inboxes/a%2Fb%3Fc" {
			t.Errorf("path = %q", p)
		}
		if _, err := c.GetInbox(ctx, ""); err == nil || got.count() != 1 {
			t.Errorf("GetInbox(\"\"): %v", err)
		}
	})
	t.Run("ListInboxes sends its filters", func(t *testing.T) {
		c, got := server(t, http.StatusOK, `{"data":[`+inboxJSON+`],"page":2,"per_page":10,"total":11,"total_pages":2}`)
		page, err := c.ListInboxes(ctx, burnbox.ListInboxesParams{Query: "signup", Status: "all", TeamID: "t", Page: 2, PerPage: 10})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Inboxes) != 1 || page.Total != 11 || page.TotalPages != 2 || page.Page.Page != 2 {
			t.Errorf("page = %+v", page)
		}
		want := url.Values{"q": {"signup"}, "status": {"all"}, "team_id": {"t"}, "page": {"2"}, "per_page": {"10"}}
		if q := got.at(0).query; !reflect.DeepEqual(q, want) {
			t.Errorf("query = %v", q)
		}
	})
	t.Run("ListEmails and GetEmail", func(t *testing.T) {
		c, got := server(t, http.StatusOK, `{"data":[{"id":"e1","inbox_id":"i","from_address":"a@b","subject":"Hi","snippet":"s",
"size_bytes":10,"has_attachments":false,"is_read":false,"received_at":"2026-12-02T05:00:00Z","authentication_summary":"none",
"extracted":{"codes":[],"links":[]}}],"page":1,"per_page":20,"total":1,"total_pages":1}`)
		page, err := c.ListEmails(ctx, "i", burnbox.ListEmailsParams{Query: "from:a@b"})
		if err != nil || len(page.Emails) != 1 || page.Emails[0].Subject != "Hi" {
			t.Fatalf("ListEmails = %+v, %v", page, err)
		}
		if r := got.at(0); r.path != "/api/v1/inboxes/i/emails" || r.query.Get("q") != "from:a@b" {
			t.Errorf("sent %s ?%v", r.path, r.query)
		}

		c, got = server(t, http.StatusOK, `{"id":"e1","inbox_id":"i","message_id":null,"from_address":"a@b","to_address":"x@qa.example",
"subject":"Hi","body_text":"Your code is 123456","body_html":null,"headers":{"x-test-run":"r1"},"size_bytes":10,"is_read":true,
"received_at":"2026-12-02T05:00:00Z","attachments":[{"id":"f","filename":"a.pdf","content_type":"application/pdf","size_bytes":3}],
"extracted":{"codes":[{"value":"123456","context":"Your code is 123456"}],"links":[]},"authentication":null}`)
		email, err := c.GetEmail(ctx, "e1")
		if err != nil {
			t.Fatal(err)
		}
		if email.BodyText != "Your code is 123456" || email.BodyHTML != "" || email.Headers["x-test-run"] != "r1" ||
			email.Attachments[0].Filename != "a.pdf" || email.Extracted.Codes[0].Value != "123456" || email.Authentication != nil {
			t.Errorf("email = %+v", email)
		}
		if r := got.at(0); r.path != "/api/v1/emails/e1" {
			t.Errorf("path = %q", r.path)
		}
	})
	t.Run("DeleteInbox takes a 204", func(t *testing.T) {
		c, got := server(t, http.StatusNoContent, "")
		if err := c.DeleteInbox(ctx, "i"); err != nil {
			t.Fatal(err)
		}
		if r := got.at(0); r.method != "DELETE" || r.path != "/api/v1/inboxes/i" {
			t.Errorf("sent %s %s", r.method, r.path)
		}
	})
}

func TestErrorsCarryTheAPICode(t *testing.T) {
	cases := []struct {
		name         string
		status       int
		body         string
		code, msg    string
		retryAfter   time.Duration
		detailsPaths []string
	}{
		{"the envelope", 404, `{"error":"Inbox not found","code":"not_found"}`, burnbox.CodeNotFound, "Inbox not found", 0, nil},
		{"a validation error's details", 400, `{"error":"Invalid request","code":"validation_error","details":[{"path":"alias","message":"too long"}]}`,
			burnbox.CodeValidation, "Invalid request", 0, []string{"alias"}},
		{"a code the client does not know", 409, `{"error":"Too many sessions","code":"session_limit"}`, "session_limit", "Too many sessions", 0, nil},
		{"the rate-limit body", 429, `{"error":"Too many requests","retry_after":7}`, burnbox.CodeRateLimited, "Too many requests", 7 * time.Second, nil},
		{"a 429 without a body", 429, ``, burnbox.CodeRateLimited, "Too Many Requests", 3 * time.Second, nil},
		{"a proxy's page", 502, `<html>Bad gateway</html>`, burnbox.CodeInternal, "Bad Gateway", 0, nil},
		{"an unknown 4xx", 418, ``, "http_418", "I'm a teapot", 0, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := server(t, tc.status, tc.body)
			_, err := c.GetInbox(context.Background(), "i")
			var apiErr *burnbox.Error
			if !errors.As(err, &apiErr) {
				t.Fatalf("error %T %v is no *burnbox.Error", err, err)
			}
			if apiErr.StatusCode != tc.status || apiErr.Code != tc.code || apiErr.Message != tc.msg || apiErr.RetryAfter != tc.retryAfter {
				t.Errorf("got %+v", apiErr)
			}
			var paths []string
			for _, d := range apiErr.Details {
				paths = append(paths, d.Path)
			}
			if !reflect.DeepEqual(paths, tc.detailsPaths) {
				t.Errorf("details = %v", apiErr.Details)
			}
			if string(apiErr.Body) != tc.body {
				t.Errorf("body = %q", apiErr.Body)
			}
			if !strings.Contains(err.Error(), tc.code) {
				t.Errorf("Error() = %q names no code", err.Error())
			}
		})
	}
}

func TestACancelledContextEndsTheCall(t *testing.T) {
	arrived := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		<-r.Context().Done() // holds the wait until the client gives up
	}))
	defer srv.Close()
	c, err := burnbox.New(srv.URL, burnbox.WithAPIKey("bb_k"), burnbox.WithHTTPClient(srv.Client()))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	_, err = c.WaitForCode(ctx, "i", burnbox.WaitOptions{Subject: "Verify"})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
