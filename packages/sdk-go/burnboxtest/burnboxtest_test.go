package burnboxtest_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	burnbox "burnbox-go"
	"burnbox-go/burnboxtest"
)

// fakeT is a testing.TB whose failures are recorded rather than reported, so a test can check
// that a helper fails its test. Fatal ends the goroutine as testing's does: run the helper in
// fakeT.run.
type fakeT struct {
	testing.TB
	mu       sync.Mutex
	failures []string
	cleanups []func()
}

func (f *fakeT) Helper() {}

func (f *fakeT) Cleanup(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cleanups = append(f.cleanups, fn)
}

func (f *fakeT) Errorf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failures = append(f.failures, fmt.Sprintf(format, args...))
}

func (f *fakeT) Fatal(args ...any) {
	f.Errorf("%s", fmt.Sprint(args...))
	runtime.Goexit()
}

func (f *fakeT) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	runtime.Goexit()
}

// run calls fn as a test body, then the cleanups, last registered first.
func (f *fakeT) run(fn func(t testing.TB)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn(f)
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

// fakeBurnBox answers as BurnBox does for one inbox, and counts the deletions.
func fakeBurnBox(t *testing.T, deleteStatus int, waitBody string) (url string, deletes *atomic.Int32) {
	t.Helper()
	n := &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "POST" && r.URL.Path == "/api/v1/inboxes":
			body, _ := io.ReadAll(r.Body)
			if !strings.Contains(string(body), `"domain_assignment_id":"assignment-1"`) {
				w.WriteHeader(400)
				_, _ = io.WriteString(w, `{"error":"domain_assignment_id is required","code":"validation_error"}`)
				return
			}
			w.WriteHeader(201)
			_, _ = io.WriteString(w, `{"id":"inbox-1","address":"x","full_address":"x@qa.example","created_at":"2026-12-02T05:00:00Z","expires_at":"2026-12-02T06:00:00Z"}`)
		case r.Method == "DELETE" && r.URL.Path == "/api/v1/inboxes/inbox-1":
			n.Add(1)
			w.WriteHeader(deleteStatus)
			if deleteStatus != 204 {
				_, _ = io.WriteString(w, `{"error":"nope","code":"`+map[int]string{404: "not_found", 500: "internal_error"}[deleteStatus]+`"}`)
			}
		case r.URL.Path == "/api/v1/inboxes/inbox-1/emails/wait":
			_, _ = io.WriteString(w, waitBody)
		default:
			w.WriteHeader(404)
			_, _ = io.WriteString(w, `{"error":"no route","code":"not_found"}`)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL, n
}

const codeAnswer = `{"data":[{"id":"e1","inbox_id":"inbox-1","subject":"Verify","received_at":"2026-12-02T05:00:00Z",
"extracted":{"codes":[{"value":"482913","context":"code 482913"}],"links":[{"url":"https://app.example/verify","text":"","kind":"verify"}]}}],
"matched":1,"timed_out":false}`

func env(t *testing.T, url string) {
	t.Setenv(burnbox.EnvURL, url)
	t.Setenv(burnbox.EnvAPIKey, "bb_test")
	t.Setenv(burnboxtest.EnvDomainAssignmentID, "assignment-1")
}

func TestNewInboxIsDeletedWhenTheTestEnds(t *testing.T) {
	url, deletes := fakeBurnBox(t, 204, codeAnswer)
	env(t, url)
	f := &fakeT{}
	var code, link string
	f.run(func(tb testing.TB) {
		inbox := burnboxtest.NewInbox(tb)
		if inbox.FullAddress != "x@qa.example" {
			tb.Errorf("inbox = %+v", inbox.Inbox)
		}
		code = inbox.WaitForCode(burnbox.WaitOptions{Subject: "Verify"})
		link = inbox.WaitForLink(burnbox.LinkVerify, burnbox.WaitOptions{})
		if deletes.Load() != 0 {
			tb.Errorf("deleted before the test ended")
		}
	})
	if len(f.failures) != 0 || code != "482913" || link != "https://app.example/verify" || deletes.Load() != 1 {
		t.Errorf("failures %v, code %q, link %q, %d deletions", f.failures, code, link, deletes.Load())
	}
}

func TestAnInboxTheTestDeletedItselfIsNoFailure(t *testing.T) {
	url, deletes := fakeBurnBox(t, 404, codeAnswer)
	env(t, url)
	f := &fakeT{}
	f.run(func(tb testing.TB) { burnboxtest.NewInbox(tb) })
	if len(f.failures) != 0 || deletes.Load() != 1 {
		t.Errorf("failures %v, %d deletions", f.failures, deletes.Load())
	}

	url, _ = fakeBurnBox(t, 500, codeAnswer)
	env(t, url)
	f = &fakeT{}
	f.run(func(tb testing.TB) { burnboxtest.NewInbox(tb) })
	if len(f.failures) != 1 || !strings.Contains(f.failures[0], "internal_error") {
		t.Errorf("a failed deletion: failures %v", f.failures)
	}
}

func TestTheHelpersFailTheTest(t *testing.T) {
	url, _ := fakeBurnBox(t, 204, `{"data":[],"matched":0,"timed_out":true}`)
	env(t, url)
	f := &fakeT{}
	reached := false
	f.run(func(tb testing.TB) {
		inbox := burnboxtest.NewInbox(tb)
		inbox.WaitForCode(burnbox.WaitOptions{Subject: "Verify"})
		reached = true
	})
	if reached || len(f.failures) != 1 || !strings.Contains(f.failures[0], "timed out waiting for email") ||
		!strings.Contains(f.failures[0], "x@qa.example") {
		t.Errorf("a wait that timed out: failures %v, went on: %v", f.failures, reached)
	}

	t.Setenv(burnboxtest.EnvDomainAssignmentID, "")
	f = &fakeT{}
	f.run(func(tb testing.TB) { burnboxtest.NewInbox(tb) })
	if len(f.failures) != 1 || !strings.Contains(f.failures[0], burnboxtest.EnvDomainAssignmentID) {
		t.Errorf("no domain assignment: failures %v", f.failures)
	}

	t.Setenv(burnbox.EnvAPIKey, "")
	f = &fakeT{}
	f.run(func(tb testing.TB) { burnboxtest.Client(tb) })
	if len(f.failures) != 1 || !strings.Contains(f.failures[0], burnbox.EnvAPIKey) {
		t.Errorf("no API key: failures %v", f.failures)
	}
}
