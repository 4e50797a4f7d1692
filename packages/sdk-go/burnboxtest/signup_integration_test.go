//go:build integration

// Against a running BurnBox: go test -tags integration ./... with BURNBOX_URL, BURNBOX_API_KEY,
// BURNBOX_DOMAIN_ASSIGNMENT_ID, and BURNBOX_SMTP_HOST and BURNBOX_SMTP_PORT (its SMTP intake,
// which stands in here for the app under test sending its mail). npm test runs these against its
// end-to-end system (tests-e2e/src/sdk-go.e2e.spec.ts).
package burnboxtest_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/smtp"
	"os"
	"strings"
	"testing"
	"time"

	burnbox "burnbox-go"
	"burnbox-go/burnboxtest"
)

// The README's first example, as it is there.
func TestSignUp(t *testing.T) {
	inbox := burnboxtest.NewInbox(t)
	signUp(t, inbox.FullAddress)
	code := inbox.WaitForCode(burnbox.WaitOptions{Subject: "Verify"})
	confirm(t, code)
}

// signUp stands for the app under test: it mails a code to the address.
func signUp(t *testing.T, address string) {
	t.Helper()
	sendMail(t, address, "Verify your account", "Welcome! Your verification code is 482 913.\r\n")
}

func confirm(t *testing.T, code string) {
	t.Helper()
	if code != "482913" {
		t.Fatalf("code = %q, want 482913", code)
	}
}

func TestTheInboxIsDeletedWhenTheTestEnds(t *testing.T) {
	var inbox *burnboxtest.Inbox
	t.Run("a test with an inbox", func(t *testing.T) { inbox = burnboxtest.NewInbox(t) })
	_, err := inbox.Client.GetInbox(context.Background(), inbox.ID)
	var apiErr *burnbox.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 404 || apiErr.Code != burnbox.CodeNotFound {
		t.Fatalf("GetInbox after the test: %v, want 404 not_found", err)
	}
}

func TestTheClientAgainstBurnBox(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	bb := burnboxtest.Client(t)
	run := randomLetters(t, 8) // no digits: nothing in the subject reads as a code
	inbox, err := bb.CreateInbox(ctx, burnbox.CreateInboxParams{
		DomainAssignmentID: os.Getenv(burnboxtest.EnvDomainAssignmentID),
		Alias:              "go-" + run,
		TTL:                "15m",
	})
	if err != nil {
		t.Fatal(err)
	}
	if inbox.FullAddress != inbox.Address+"@"+strings.SplitN(inbox.FullAddress, "@", 2)[1] || inbox.Address != "go-"+run {
		t.Fatalf("inbox = %+v", inbox)
	}

	// a wait started before the mail answers when it comes
	waited := make(chan error, 1)
	var email *burnbox.EmailSummary
	go func() {
		var err error
		email, err = bb.WaitForEmail(ctx, inbox.ID, burnbox.WaitOptions{Subject: "run " + run, Timeout: 10 * time.Second})
		waited <- err
	}()
	sendMail(t, inbox.FullAddress, "Confirm your account, run "+run,
		"Confirm it here: https://app.example/verify?token=t"+run+"\r\nOr unsubscribe: https://app.example/unsubscribe\r\n")
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	link, err := bb.WaitForLink(ctx, inbox.ID, burnbox.LinkVerify, burnbox.WaitOptions{Subject: "run " + run})
	if err != nil || link != "https://app.example/verify?token=t"+run {
		t.Errorf("WaitForLink = %q, %v", link, err)
	}
	_, err = bb.WaitForCode(ctx, inbox.ID, burnbox.WaitOptions{Subject: "run " + run})
	if !errors.Is(err, burnbox.ErrNoCode) {
		t.Errorf("WaitForCode on a mail without a code: %v", err)
	}

	page, err := bb.ListEmails(ctx, inbox.ID, burnbox.ListEmailsParams{})
	if err != nil || len(page.Emails) != 1 || page.Emails[0].ID != email.ID {
		t.Fatalf("ListEmails = %+v, %v", page, err)
	}
	full, err := bb.GetEmail(ctx, email.ID)
	if err != nil || !strings.Contains(full.BodyText, "token=t"+run) || full.FromAddress != "noreply@app.example" {
		t.Fatalf("GetEmail = %+v, %v", full, err)
	}
	inboxes, err := bb.ListInboxes(ctx, burnbox.ListInboxesParams{Query: "go-" + run})
	if err != nil || len(inboxes.Inboxes) != 1 || inboxes.Inboxes[0].ID != inbox.ID {
		t.Errorf("ListInboxes = %+v, %v", inboxes, err)
	}

	// no such mail: the wait answers timed out; WaitForEmail says so as an error
	result, err := bb.Wait(ctx, inbox.ID, burnbox.WaitOptions{Subject: "never sent", Timeout: burnbox.Immediately})
	if err != nil || !result.TimedOut || result.Matched != 0 {
		t.Errorf("Wait = %+v, %v", result, err)
	}
	_, err = bb.WaitForEmail(ctx, inbox.ID, burnbox.WaitOptions{Since: time.Now(), Timeout: 200 * time.Millisecond})
	var timeout *burnbox.WaitTimeoutError
	if !errors.As(err, &timeout) {
		t.Errorf("WaitForEmail with nothing new: %v", err)
	}
	// the server's 400 comes back with its code
	_, err = bb.Wait(ctx, inbox.ID, burnbox.WaitOptions{SubjectRegexp: "(unclosed"})
	var apiErr *burnbox.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 400 || apiErr.Code != burnbox.CodeValidation {
		t.Errorf("an invalid pattern: %v", err)
	}

	if err := bb.DeleteInbox(ctx, inbox.ID); err != nil {
		t.Fatal(err)
	}
	_, err = bb.GetInbox(ctx, inbox.ID)
	if !errors.As(err, &apiErr) || apiErr.Code != burnbox.CodeNotFound {
		t.Errorf("GetInbox after DeleteInbox: %v", err)
	}
	anonymous, err := burnbox.New(os.Getenv(burnbox.EnvURL))
	if err != nil {
		t.Fatal(err)
	}
	_, err = anonymous.ListInboxes(ctx, burnbox.ListInboxesParams{})
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 401 || apiErr.Code != burnbox.CodeUnauthenticated {
		t.Errorf("no credential: %v", err)
	}
}

// sendMail hands one plain-text mail to the SMTP intake, as an app's mailer would.
func sendMail(t *testing.T, to, subject, text string) {
	t.Helper()
	host := os.Getenv("BURNBOX_SMTP_HOST")
	if host == "" {
		host = "127.0.0.1"
	}
	port := os.Getenv("BURNBOX_SMTP_PORT")
	if port == "" {
		port = "25"
	}
	c, err := smtp.Dial(net.JoinHostPort(host, port))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// plain SMTP on loopback (smtp.SendMail would take up STARTTLS and check a certificate the
	// test system's intake has for localhost only)
	if err := c.Hello("app.example"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail("noreply@app.example"); err != nil {
		t.Fatal(err)
	}
	if err := c.Rcpt(to); err != nil {
		t.Fatal(err)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprintf("From: App <noreply@app.example>\r\nTo: <%s>\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s@app.example>\r\n"+
		"MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n%s",
		to, subject, time.Now().Format(time.RFC1123Z), randomHex(t, 8), text)
	if _, err := w.Write([]byte(msg)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Quit(); err != nil {
		t.Fatal(err)
	}
}

func randomLetters(t *testing.T, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = 'a' + b[i]%26
	}
	return string(b)
}

func randomHex(t *testing.T, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
