package burnbox

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// MaxWaitTimeout is the longest wait the server holds.
const MaxWaitTimeout = 120 * time.Second

// DefaultWaitTimeout is how long the server waits when no timeout is given.
const DefaultWaitTimeout = 30 * time.Second

// Immediately, as [WaitOptions.Timeout], has the server answer at once with what is there.
const Immediately time.Duration = -1

// WaitOptions says which emails a wait is for and how long it may take. Every matcher given
// must hold; the zero value waits for any one email.
type WaitOptions struct {
	// From, To, Subject and Body are case-insensitive substrings of the From address or name,
	// of any address or name in To or Cc, of the subject, and of the body (the text part, else
	// the HTML part's visible text).
	From, To, Subject, Body string
	// SubjectRegexp and BodyRegexp are RE2 patterns (at most 256 characters) the subject or
	// the body matches.
	SubjectRegexp, BodyRegexp string
	// Headers must all have exactly these values, e.g. {"X-Test-Run": runID}: how a test run
	// finds only its own mail.
	Headers map[string]string
	// Since counts only mail received after this time; SinceEmail only mail received after the
	// email with this id. Zero: mail that arrived before the call counts too.
	Since      time.Time
	SinceEmail string
	// Unread counts only unread mail.
	Unread bool
	// Count is how many emails to wait for, 1 to 100 (0: one).
	Count int
	// Timeout is how long the server waits, at most [MaxWaitTimeout]; [Immediately] answers
	// at once. Zero: [DefaultWaitTimeout], shortened to end before the context's deadline, so
	// that a deadline gives a timed-out answer rather than a cancelled request.
	Timeout time.Duration
}

// WaitResult is the server's answer to a wait.
type WaitResult struct {
	// Emails are the first Count matching emails, oldest first.
	Emails []EmailSummary `json:"data"`
	// Matched counts every matching email at answer time.
	Matched int `json:"matched"`
	// TimedOut is true when fewer than Count matched within the timeout.
	TimedOut bool `json:"timed_out"`
}

// deadlineMargin is kept between the server's timeout and the context's deadline, for the
// answer to travel back.
const deadlineMargin = 500 * time.Millisecond

// query is the wait's query string as the server reads it.
func (o WaitOptions) query(ctx context.Context) (url.Values, error) {
	q := url.Values{}
	set(q, "from", o.From)
	set(q, "to", o.To)
	set(q, "subject", o.Subject)
	set(q, "body", o.Body)
	set(q, "subject_re", o.SubjectRegexp)
	set(q, "body_re", o.BodyRegexp)
	names := make([]string, 0, len(o.Headers))
	for name := range o.Headers {
		if name == "" || strings.ContainsAny(name, ":\r\n") {
			return nil, fmt.Errorf("burnbox: the header name %q is empty or holds a colon or a line break", name)
		}
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		q.Add("header", name+": "+o.Headers[name])
	}
	switch {
	case !o.Since.IsZero() && o.SinceEmail != "":
		return nil, errors.New("burnbox: give Since or SinceEmail, not both")
	case !o.Since.IsZero():
		q.Set("since", o.Since.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
	case o.SinceEmail != "":
		q.Set("since", o.SinceEmail)
	}
	if o.Unread {
		q.Set("unread", "true")
	}
	if o.Count < 0 || o.Count > 100 {
		return nil, fmt.Errorf("burnbox: Count is %d, not 1 to 100", o.Count)
	}
	setInt(q, "count", o.Count)
	timeout := o.Timeout
	switch {
	case timeout == Immediately:
		timeout = 0
	case timeout < 0 || timeout > MaxWaitTimeout:
		return nil, fmt.Errorf("burnbox: Timeout is %v, not 0 to %v", o.Timeout, MaxWaitTimeout)
	case timeout == 0:
		timeout = DefaultWaitTimeout
		if deadline, ok := ctx.Deadline(); ok {
			if left := time.Until(deadline) - deadlineMargin; left < timeout {
				timeout = left
			}
			if timeout < 0 {
				timeout = 0
			}
		}
	}
	q.Set("timeout", formatTimeout(timeout))
	return q, nil
}

// formatTimeout writes a duration as the server reads it: "0", else whole milliseconds.
func formatTimeout(d time.Duration) string {
	if ms := d.Milliseconds(); ms > 0 {
		return strconv.FormatInt(ms, 10) + "ms"
	}
	return "0"
}

// Wait holds one request until the inbox has Count emails matching o, or until the timeout
// (GET /inboxes/{id}/emails/wait). A wait that timed out is an answer here, not an error
// (TimedOut is true): the way a test asserts that no such mail came. A team key needs the
// team.emails.view scope; an inbox deleted or expired during the wait ends it with a 404.
func (c *Client) Wait(ctx context.Context, inboxID string, o WaitOptions) (*WaitResult, error) {
	if err := needID("inbox", inboxID); err != nil {
		return nil, err
	}
	q, err := o.query(ctx)
	if err != nil {
		return nil, err
	}
	var result WaitResult
	if err := c.do(ctx, http.MethodGet, "/inboxes/"+pathEscape(inboxID)+"/emails/wait", q, nil, &result); err != nil {
		return nil, err
	}
	return &result, nil
}

// WaitForEmails is [Client.Wait] that returns the emails, and a [*WaitTimeoutError] when
// fewer than o.Count matched in time.
func (c *Client) WaitForEmails(ctx context.Context, inboxID string, o WaitOptions) ([]EmailSummary, error) {
	result, err := c.Wait(ctx, inboxID, o)
	if err != nil {
		return nil, err
	}
	if result.TimedOut {
		return nil, &WaitTimeoutError{Result: result}
	}
	return result.Emails, nil
}

// WaitForEmail waits for the first email matching o (o.Count is ignored) and returns it, or a
// [*WaitTimeoutError] when none came in time.
func (c *Client) WaitForEmail(ctx context.Context, inboxID string, o WaitOptions) (*EmailSummary, error) {
	o.Count = 1
	emails, err := c.WaitForEmails(ctx, inboxID, o)
	if err != nil {
		return nil, err
	}
	if len(emails) == 0 {
		return nil, fmt.Errorf("burnbox: the wait answered no email and did not time out")
	}
	return &emails[0], nil
}

// WaitForCode waits for the first email matching o and returns its first one-time code. When
// that email holds none, the error is a [*NothingExtractedError] wrapping [ErrNoCode].
func (c *Client) WaitForCode(ctx context.Context, inboxID string, o WaitOptions) (string, error) {
	email, err := c.WaitForEmail(ctx, inboxID, o)
	if err != nil {
		return "", err
	}
	if len(email.Extracted.Codes) == 0 {
		return "", &NothingExtractedError{Email: email, err: ErrNoCode}
	}
	return email.Extracted.Codes[0].Value, nil
}

// WaitForLink waits for the first email matching o and returns the URL of its first link of
// the given kind ("": the first link that is not an unsubscribe link). When that email holds
// none, the error is a [*NothingExtractedError] wrapping [ErrNoLink].
func (c *Client) WaitForLink(ctx context.Context, inboxID string, kind LinkKind, o WaitOptions) (string, error) {
	email, err := c.WaitForEmail(ctx, inboxID, o)
	if err != nil {
		return "", err
	}
	for _, l := range email.Extracted.Links {
		if kind == "" && l.Kind != LinkUnsubscribe || kind != "" && l.Kind == kind {
			return l.URL, nil
		}
	}
	return "", &NothingExtractedError{Email: email, err: ErrNoLink}
}
