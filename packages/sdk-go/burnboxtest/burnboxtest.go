// Package burnboxtest gives a Go test a fresh BurnBox inbox that is deleted when the test ends,
// and waits that fail the test rather than return an error:
//
//	func TestSignUp(t *testing.T) {
//		inbox := burnboxtest.NewInbox(t)
//		signUp(t, inbox.FullAddress) // the app under test mails a code there
//		code := inbox.WaitForCode(burnbox.WaitOptions{Subject: "Verify"})
//		confirm(t, code)
//	}
//
// It reads BURNBOX_URL, BURNBOX_API_KEY (a team key with the scopes team.inboxes.create,
// team.inboxes.manage to delete, team.inboxes.view and team.emails.view) and
// BURNBOX_DOMAIN_ASSIGNMENT_ID (the team's domain to create inboxes on). The calls it makes end with the test, or just before the test binary's
// -timeout.
package burnboxtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	burnbox "burnbox-go"
)

// EnvDomainAssignmentID names the variable [NewInbox] reads for the domain to create inboxes on.
const EnvDomainAssignmentID = "BURNBOX_DOMAIN_ASSIGNMENT_ID"

// Client is a client from BURNBOX_URL and BURNBOX_API_KEY; it fails the test when either is
// missing.
func Client(t testing.TB, opts ...burnbox.Option) *burnbox.Client {
	t.Helper()
	c, err := burnbox.NewFromEnv(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Inbox is an inbox made for one test, with the client that made it.
type Inbox struct {
	*burnbox.Inbox
	Client *burnbox.Client
	t      testing.TB
}

// NewInbox creates an inbox on BURNBOX_DOMAIN_ASSIGNMENT_ID with a client from the environment
// ([Client]), and deletes it when the test ends.
func NewInbox(t testing.TB) *Inbox {
	t.Helper()
	id := os.Getenv(EnvDomainAssignmentID)
	if id == "" {
		t.Fatalf("burnboxtest: %s is not set", EnvDomainAssignmentID)
	}
	return NewInboxWith(t, Client(t), burnbox.CreateInboxParams{DomainAssignmentID: id})
}

// NewInboxWith creates an inbox with c and params (an empty DomainAssignmentID is
// BURNBOX_DOMAIN_ASSIGNMENT_ID), and deletes it when the test ends.
func NewInboxWith(t testing.TB, c *burnbox.Client, params burnbox.CreateInboxParams) *Inbox {
	t.Helper()
	if params.DomainAssignmentID == "" {
		params.DomainAssignmentID = os.Getenv(EnvDomainAssignmentID)
	}
	inbox, err := c.CreateInbox(Context(t), params)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// the test's context is done by now: the deletion has a few seconds of its own
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var apiErr *burnbox.Error
		if err := c.DeleteInbox(ctx, inbox.ID); err != nil && !(errors.As(err, &apiErr) && apiErr.Code == burnbox.CodeNotFound) {
			t.Errorf("burnboxtest: deleting inbox %s: %v", inbox.FullAddress, err)
		}
	})
	return &Inbox{Inbox: inbox, Client: c, t: t}
}

// WaitForEmail waits for the first email matching o, failing the test when none comes.
func (i *Inbox) WaitForEmail(o burnbox.WaitOptions) *burnbox.EmailSummary {
	i.t.Helper()
	email, err := i.Client.WaitForEmail(Context(i.t), i.ID, o)
	if err != nil {
		i.t.Fatal(describe(i, err))
	}
	return email
}

// WaitForCode waits for the first email matching o and returns its first one-time code,
// failing the test when none comes or it holds no code.
func (i *Inbox) WaitForCode(o burnbox.WaitOptions) string {
	i.t.Helper()
	code, err := i.Client.WaitForCode(Context(i.t), i.ID, o)
	if err != nil {
		i.t.Fatal(describe(i, err))
	}
	return code
}

// WaitForLink waits for the first email matching o and returns its first link of the kind
// ("": any but an unsubscribe link), failing the test when none comes or it holds none.
func (i *Inbox) WaitForLink(kind burnbox.LinkKind, o burnbox.WaitOptions) string {
	i.t.Helper()
	link, err := i.Client.WaitForLink(Context(i.t), i.ID, kind, o)
	if err != nil {
		i.t.Fatal(describe(i, err))
	}
	return link
}

// Email reads one email of the inbox in full, failing the test on an error.
func (i *Inbox) Email(id string) *burnbox.Email {
	i.t.Helper()
	email, err := i.Client.GetEmail(Context(i.t), id)
	if err != nil {
		i.t.Fatal(err)
	}
	return email
}

func describe(i *Inbox, err error) string {
	return fmt.Sprintf("burnboxtest: waiting on %s: %v", i.FullAddress, err)
}

// Context is a context that is cancelled when the test ends, with a deadline a second before
// the test binary's -timeout when it has one.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	if d, ok := t.(interface{ Deadline() (time.Time, bool) }); ok {
		if deadline, ok := d.Deadline(); ok {
			cancel()
			ctx, cancel = context.WithDeadline(context.Background(), deadline.Add(-time.Second))
		}
	}
	t.Cleanup(cancel)
	return ctx
}
