package burnbox_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"time"

	burnbox "burnbox-go"
)

// A sign-up check outside a test: create an inbox, have the app mail it, take the code.
func ExampleClient_WaitForCode() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	bb, err := burnbox.NewFromEnv() // BURNBOX_URL, BURNBOX_API_KEY
	if err != nil {
		log.Fatal(err)
	}
	inbox, err := bb.CreateInbox(ctx, burnbox.CreateInboxParams{DomainAssignmentID: os.Getenv("BURNBOX_DOMAIN_ASSIGNMENT_ID"), TTL: "15m"})
	if err != nil {
		log.Fatal(err)
	}
	defer bb.DeleteInbox(context.Background(), inbox.ID) // it would expire anyway

	// ... sign up in the app under test with inbox.FullAddress ...

	code, err := bb.WaitForCode(ctx, inbox.ID, burnbox.WaitOptions{Subject: "Verify", Timeout: 30 * time.Second})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("the code is", code)
}

// A link of a given kind: the verification link of a sign-up mail, from mail received after a
// point in time only.
func ExampleClient_WaitForLink() {
	ctx := context.Background()
	bb, err := burnbox.New("https://burnbox.example.com", burnbox.WithAPIKey(os.Getenv("BURNBOX_API_KEY")))
	if err != nil {
		log.Fatal(err)
	}
	started := time.Now()
	// ... ask the app under test to send the mail ...
	link, err := bb.WaitForLink(ctx, "INBOX_ID", burnbox.LinkVerify, burnbox.WaitOptions{Since: started})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("open", link)
}

// A wait that times out is an answer: the way to assert that no mail came.
func ExampleClient_Wait() {
	ctx := context.Background()
	bb, err := burnbox.NewFromEnv()
	if err != nil {
		log.Fatal(err)
	}
	result, err := bb.Wait(ctx, "INBOX_ID", burnbox.WaitOptions{
		Headers: map[string]string{"X-Test-Run": "run-42"},
		Timeout: 2 * time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	if !result.TimedOut {
		log.Fatalf("expected no mail, got %d", result.Matched)
	}
}

// The API's code of an answer other than 2xx, with errors.As.
func ExampleError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"error":"Inbox not found","code":"not_found"}`)
	}))
	defer srv.Close()
	bb, _ := burnbox.New(srv.URL, burnbox.WithAPIKey("bb_example"))

	_, err := bb.GetInbox(context.Background(), "0193a0c4-0000-7000-8000-000000000000")
	var apiErr *burnbox.Error
	if errors.As(err, &apiErr) && apiErr.Code == burnbox.CodeNotFound {
		fmt.Println(apiErr.StatusCode, apiErr.Code, apiErr.Message)
	}
	// Output: 404 not_found Inbox not found
}

// A webhook receiver: verify each delivery before handling it, and answer a refused one with
// a 4xx. The body is read as bytes and verified as received.
func ExampleVerifyWebhook() {
	secret := "the secret shown when the webhook was created"
	receiver := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 1<<20))
		if err != nil {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		delivery, err := burnbox.VerifyWebhook(secret, r.Header, body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		}
		var data burnbox.EmailReceived
		if delivery.Event == "email.received" && delivery.Decode(&data) == nil {
			fmt.Println("mail to", data.To, "about", data.Subject)
		}
		w.WriteHeader(http.StatusNoContent)
	})

	// what the dispatcher sends: the body, signed with the secret and the time of sending
	body := `{"id":"d1","event":"email.received","timestamp":"2026-12-02T05:30:00.000Z","data":{"to":"signup-1@qa.example","subject":"Verify your account"}}`
	t := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(t + "." + body))
	req := httptest.NewRequest(http.MethodPost, "/hooks/burnbox", strings.NewReader(body))
	req.Header.Set(burnbox.HeaderSignature256, "t="+t+",v1="+hex.EncodeToString(mac.Sum(nil)))

	res := httptest.NewRecorder()
	receiver.ServeHTTP(res, req)
	fmt.Println(res.Code)

	// the same body with another signature is refused
	req = httptest.NewRequest(http.MethodPost, "/hooks/burnbox", strings.NewReader(body))
	req.Header.Set(burnbox.HeaderSignature256, "t="+t+",v1="+strings.Repeat("0", 64))
	res = httptest.NewRecorder()
	receiver.ServeHTTP(res, req)
	fmt.Print(res.Code, " ", res.Body.String())
	// Output:
	// mail to signup-1@qa.example about Verify your account
	// 204
	// 401 burnbox: webhook bad_signature: no signature matches the body and its send time
}

// A verifier with a tolerance and a clock of its own: here a delivery signed at 05:30:00 UTC,
// checked four minutes later and then ten.
func ExampleWebhookVerifier() {
	header := http.Header{}
	header.Set(burnbox.HeaderSignature256, fixtureSignature)
	sent := time.Date(2026, 12, 2, 5, 30, 0, 0, time.UTC)

	v := burnbox.WebhookVerifier{Secret: fixtureSecret, Now: func() time.Time { return sent.Add(4 * time.Minute) }}
	delivery, err := v.Verify(header, []byte(fixtureBody))
	fmt.Println(delivery.Event, err)

	v.Now = func() time.Time { return sent.Add(10 * time.Minute) }
	_, err = v.Verify(header, []byte(fixtureBody))
	var werr *burnbox.WebhookError
	if errors.As(err, &werr) {
		fmt.Println(werr.Reason)
	}
	// Output:
	// email.received <nil>
	// stale_timestamp
}
