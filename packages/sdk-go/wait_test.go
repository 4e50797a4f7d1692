package burnbox_test

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	burnbox "burnbox-go"
)

// summary is an email summary as the wait answers it, with these codes and links.
func summary(id, codes, links string) string {
	return `{"id":"` + id + `","inbox_id":"i","from_address":"app@example.com","subject":"Verify your account","snippet":"",
"size_bytes":100,"has_attachments":false,"is_read":false,"received_at":"2026-12-02T05:00:00.123Z","authentication_summary":"pass",
"extracted":{"codes":[` + codes + `],"links":[` + links + `]}}`
}

func waitAnswer(matched int, timedOut bool, emails ...string) string {
	return `{"data":[` + strings.Join(emails, ",") + `],"matched":` + strconv.Itoa(matched) + `,"timed_out":` + strconv.FormatBool(timedOut) + `}`
}

func TestWaitSendsEveryMatcher(t *testing.T) {
	c, got := server(t, http.StatusOK, waitAnswer(2, false, summary("e1", "", ""), summary("e2", "", "")))
	since := time.Date(2026, 12, 2, 6, 30, 0, 5_000_000, time.FixedZone("CET", 3600))
	result, err := c.Wait(context.Background(), "inbox-1", burnbox.WaitOptions{
		From: "app@", To: "signup", Subject: "Verify", Body: "code",
		SubjectRegexp: `^Verify \d+$`, BodyRegexp: `code: [0-9]{6}`,
		Headers: map[string]string{"X-Test-Run": "run-7", "X-App": "web"},
		Since:   since, Unread: true, Count: 2, Timeout: 1500 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(result.Emails) != 2 || result.Matched != 2 || result.TimedOut || result.Emails[1].ID != "e2" {
		t.Errorf("result = %+v", result)
	}
	r := got.at(0)
	if r.method != "GET" || r.path != "/api/v1/inboxes/inbox-1/emails/wait" {
		t.Errorf("sent %s %s", r.method, r.path)
	}
	want := url.Values{
		"from": {"app@"}, "to": {"signup"}, "subject": {"Verify"}, "body": {"code"},
		"subject_re": {`^Verify \d+$`}, "body_re": {`code: [0-9]{6}`},
		"header": {"X-App: web", "X-Test-Run: run-7"}, // sorted: the same options give the same query
		"since":  {"2026-12-02T05:30:00.005Z"}, "unread": {"true"}, "count": {"2"}, "timeout": {"1500ms"},
	}
	if !reflect.DeepEqual(r.query, want) {
		t.Errorf("query =\n%v\nwant\n%v", r.query, want)
	}
}

func TestWaitTimeouts(t *testing.T) {
	timeoutSent := func(t *testing.T, ctx context.Context, o burnbox.WaitOptions) string {
		t.Helper()
		c, got := server(t, http.StatusOK, waitAnswer(0, true))
		if _, err := c.Wait(ctx, "i", o); err != nil {
			t.Fatal(err)
		}
		return got.at(0).query.Get("timeout")
	}
	bg := context.Background()
	if got := timeoutSent(t, bg, burnbox.WaitOptions{}); got != "30000ms" {
		t.Errorf("default: timeout=%s", got)
	}
	if got := timeoutSent(t, bg, burnbox.WaitOptions{Timeout: burnbox.Immediately}); got != "0" {
		t.Errorf("Immediately: timeout=%s", got)
	}
	if got := timeoutSent(t, bg, burnbox.WaitOptions{Timeout: 2 * time.Minute}); got != "120000ms" {
		t.Errorf("2m: timeout=%s", got)
	}

	// a deadline nearer than the default shortens the server's wait, so the answer is a timeout, not a cancellation
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	ms, err := strconv.Atoi(strings.TrimSuffix(timeoutSent(t, ctx, burnbox.WaitOptions{}), "ms"))
	if err != nil || ms > 9500 || ms < 8000 {
		t.Errorf("with 10 s left: timeout=%dms (%v)", ms, err)
	}
	// an explicit timeout is sent as given
	if got := timeoutSent(t, ctx, burnbox.WaitOptions{Timeout: 20 * time.Second}); got != "20000ms" {
		t.Errorf("explicit under a deadline: timeout=%s", got)
	}

	c, got := server(t, http.StatusOK, waitAnswer(0, true))
	for _, o := range []burnbox.WaitOptions{
		{Timeout: 121 * time.Second},
		{Timeout: -2 * time.Second},
		{Count: 101},
		{Count: -1},
		{Since: time.Now(), SinceEmail: "e1"},
		{Headers: map[string]string{"X-Bad:": "v"}},
		{Headers: map[string]string{"X-Bad\r\nX-Evil": "v"}},
	} {
		if _, err := c.Wait(bg, "i", o); err == nil {
			t.Errorf("Wait(%+v): no error", o)
		}
	}
	if got.count() != 0 {
		t.Errorf("options the server would refuse were sent (%d requests)", got.count())
	}
}

func TestWaitForEmailTimesOutWithTheAnswer(t *testing.T) {
	c, got := server(t, http.StatusOK, waitAnswer(1, true, summary("e1", "", "")))
	_, err := c.WaitForEmails(context.Background(), "i", burnbox.WaitOptions{Count: 3, Timeout: time.Second})
	var timeout *burnbox.WaitTimeoutError
	if !errors.As(err, &timeout) || !timeout.Timeout() || timeout.Result.Matched != 1 || len(timeout.Result.Emails) != 1 {
		t.Fatalf("err = %#v", err)
	}
	if !strings.Contains(err.Error(), "1 matched") {
		t.Errorf("Error() = %q", err.Error())
	}

	// WaitForEmail is one email, whatever Count says
	_, _ = c.WaitForEmail(context.Background(), "i", burnbox.WaitOptions{Count: 5})
	if n := got.at(1).query.Get("count"); n != "1" {
		t.Errorf("count=%s", n)
	}
}

func TestWaitForCode(t *testing.T) {
	c, got := server(t, http.StatusOK, waitAnswer(1, false, summary("e1",
		`{"value":"482913","context":"Your code is 482913"},{"value":"AB12CD","context":"or AB12CD"}`, "")))
	code, err := c.WaitForCode(context.Background(), "i", burnbox.WaitOptions{Subject: "Verify"})
	if err != nil || code != "482913" {
		t.Fatalf("WaitForCode = %q, %v", code, err)
	}
	if q := got.at(0).query; q.Get("subject") != "Verify" || q.Get("count") != "1" {
		t.Errorf("query = %v", q)
	}

	c, _ = server(t, http.StatusOK, waitAnswer(1, false, summary("e1", "", "")))
	_, err = c.WaitForCode(context.Background(), "i", burnbox.WaitOptions{})
	var nothing *burnbox.NothingExtractedError
	if !errors.Is(err, burnbox.ErrNoCode) || !errors.As(err, &nothing) || nothing.Email.ID != "e1" {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "e1") || !strings.Contains(err.Error(), "Verify your account") {
		t.Errorf("Error() = %q", err.Error())
	}

	c, _ = server(t, http.StatusNotFound, `{"error":"Inbox not found","code":"not_found"}`)
	_, err = c.WaitForCode(context.Background(), "gone", burnbox.WaitOptions{})
	var apiErr *burnbox.Error
	if !errors.As(err, &apiErr) || apiErr.Code != burnbox.CodeNotFound {
		t.Errorf("err = %v", err)
	}
}

func TestWaitForLink(t *testing.T) {
	links := `{"url":"https://app.example/unsubscribe","text":"Unsubscribe","kind":"unsubscribe"},
{"url":"https://app.example/reset?t=1","text":"Reset","kind":"reset"},
{"url":"https://app.example/verify?t=2","text":"Verify","kind":"verify"}`
	c, _ := server(t, http.StatusOK, waitAnswer(1, false, summary("e1", "", links)))
	ctx := context.Background()
	for kind, want := range map[burnbox.LinkKind]string{
		burnbox.LinkVerify:      "https://app.example/verify?t=2",
		burnbox.LinkUnsubscribe: "https://app.example/unsubscribe",
		"":                      "https://app.example/reset?t=1", // the first that is not an unsubscribe link
	} {
		got, err := c.WaitForLink(ctx, "i", kind, burnbox.WaitOptions{})
		if err != nil || got != want {
			t.Errorf("WaitForLink(%q) = %q, %v; want %q", kind, got, err, want)
		}
	}
	_, err := c.WaitForLink(ctx, "i", burnbox.LinkMagic, burnbox.WaitOptions{})
	if !errors.Is(err, burnbox.ErrNoLink) {
		t.Errorf("no magic link: err = %v", err)
	}
}
