package burnbox_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	burnbox "burnbox-go"
)

// A delivery as the webhook dispatcher signs it: the signature was computed by its own
// signDelivery (services/webhook-dispatcher/src/adapters/webhook-sender.ts) for this body, this
// secret and t=1796189400 (2026-12-02T05:30:00Z).
const (
	fixtureSecret    = "whsec-example-0123456789abcdef"
	fixtureBody      = `{"id":"0193a0c4-7d1e-7000-8000-00000000d001","event":"email.received","timestamp":"2026-12-02T05:30:00.000Z","data":{"email_id":"0193a0c4-7d1e-7000-8000-00000000e001","inbox_id":"0193a0c4-7d1e-7000-8000-00000000a001","team_id":"0193a0c4-7d1e-7000-8000-00000000c001","from":"app@example.com","to":"signup-1@qa.example","subject":"Verify your account","received_at":"2026-12-02T05:29:59.500Z"}}`
	fixtureSignature = "t=1796189400,v1=fa3afefd087ccf942dc5bc7b01c3b964251c8ccbbb737a6bc5ff54f773ce9e51"
)

var fixtureSent = time.Unix(1796189400, 0)

func at(t time.Time) func() time.Time { return func() time.Time { return t } }

func signed(signature string) http.Header {
	h := http.Header{}
	h.Set(burnbox.HeaderSignature256, signature)
	return h
}

// sign computes a v1 signature as the dispatcher does.
func sign(secret string, t int64, body string) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(t, 10) + "." + body))
	return hex.EncodeToString(mac.Sum(nil))
}

func TestVerifyWebhookAcceptsTheDispatchersSignature(t *testing.T) {
	v := burnbox.WebhookVerifier{Secret: fixtureSecret, Now: at(fixtureSent.Add(4 * time.Minute))}
	d, err := v.Verify(signed(fixtureSignature), []byte(fixtureBody))
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "0193a0c4-7d1e-7000-8000-00000000d001" || d.Event != "email.received" || !d.Timestamp.Equal(fixtureSent) {
		t.Errorf("delivery = %+v", d)
	}
	var data burnbox.EmailReceived
	if err := d.Decode(&data); err != nil || data.Subject != "Verify your account" || data.To != "signup-1@qa.example" ||
		data.ReceivedAt.Equal(time.Time{}) {
		t.Errorf("data = %+v, %v", data, err)
	}
	// a header map that is not in canonical form (built by hand from a lowercase list) is read too
	if _, err := v.Verify(http.Header{"x-service-signature-256": {fixtureSignature}}, []byte(fixtureBody)); err != nil {
		t.Errorf("lowercase header: %v", err)
	}
}

func TestVerifyWebhookRefuses(t *testing.T) {
	now := fixtureSent.Unix()
	good := sign(fixtureSecret, now, fixtureBody)
	other := sign("another secret", now, fixtureBody)
	cases := []struct {
		name, signature, body string
		tolerance             time.Duration
		clock                 time.Time
		reason                string
	}{
		{"no signature", "", fixtureBody, 0, fixtureSent, burnbox.ReasonMissingSignature},
		{"only v1", "v1=" + good, fixtureBody, 0, fixtureSent, burnbox.ReasonMalformedSignature},
		{"only t", "t=1796189400", fixtureBody, 0, fixtureSent, burnbox.ReasonMalformedSignature},
		{"two t", "t=1796189400,t=1796189401,v1=" + good, fixtureBody, 0, fixtureSent, burnbox.ReasonMalformedSignature},
		{"a t that is no number", "t=soon,v1=" + good, fixtureBody, 0, fixtureSent, burnbox.ReasonMalformedSignature},
		{"a short v1", "t=1796189400,v1=abc", fixtureBody, 0, fixtureSent, burnbox.ReasonMalformedSignature},
		{"an uppercase v1", "t=1796189400,v1=" + strings.ToUpper(good), fixtureBody, 0, fixtureSent, burnbox.ReasonMalformedSignature},
		{"a part without =", "t=1796189400,v1=" + good + ",junk", fixtureBody, 0, fixtureSent, burnbox.ReasonMalformedSignature},
		{"signed 6 min ago", fixtureSignature, fixtureBody, 0, fixtureSent.Add(6 * time.Minute), burnbox.ReasonStaleTimestamp},
		{"signed 6 min ahead", fixtureSignature, fixtureBody, 0, fixtureSent.Add(-6 * time.Minute), burnbox.ReasonStaleTimestamp},
		{"outside a tolerance of its own", fixtureSignature, fixtureBody, 30 * time.Second, fixtureSent.Add(31 * time.Second), burnbox.ReasonStaleTimestamp},
		{"another secret", "t=1796189400,v1=" + other, fixtureBody, 0, fixtureSent, burnbox.ReasonBadSignature},
		{"an altered body", fixtureSignature, strings.Replace(fixtureBody, "Verify", "Verifx", 1), 0, fixtureSent, burnbox.ReasonBadSignature},
		{"a moved timestamp", "t=1796189401,v1=" + good, fixtureBody, 0, fixtureSent, burnbox.ReasonBadSignature},
		{"a body that is not JSON", "t=1796189400,v1=" + sign(fixtureSecret, now, "not json"), "not json", 0, fixtureSent, burnbox.ReasonMalformedBody},
		{"JSON that is not a delivery", "t=1796189400,v1=" + sign(fixtureSecret, now, `{"a":1}`), `{"a":1}`, 0, fixtureSent, burnbox.ReasonMalformedBody},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := burnbox.WebhookVerifier{Secret: fixtureSecret, Tolerance: tc.tolerance, Now: at(tc.clock)}
			_, err := v.Verify(signed(tc.signature), []byte(tc.body))
			var werr *burnbox.WebhookError
			if !errors.As(err, &werr) || werr.Reason != tc.reason {
				t.Fatalf("err = %v, want reason %s", err, tc.reason)
			}
			if !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("Error() = %q", err.Error())
			}
		})
	}
}

func TestVerifyWebhookOptions(t *testing.T) {
	now := fixtureSent.Unix()
	body := []byte(fixtureBody)
	// several v1 values (a secret being rotated): one matching is enough, wherever it stands
	several := "t=1796189400,v1=" + sign("old", now, fixtureBody) + ",v1=" + sign(fixtureSecret, now, fixtureBody) + ",v2=whatever"
	v := burnbox.WebhookVerifier{Secret: fixtureSecret, Now: at(fixtureSent)}
	if _, err := v.Verify(signed(several), body); err != nil {
		t.Errorf("several v1: %v", err)
	}
	// spaces around the parts are allowed
	if _, err := v.Verify(signed(" t=1796189400 , v1="+sign(fixtureSecret, now, fixtureBody)+" "), body); err != nil {
		t.Errorf("spaces: %v", err)
	}
	// a negative tolerance turns the time check off (then drop repeated delivery ids yourself)
	off := burnbox.WebhookVerifier{Secret: fixtureSecret, Tolerance: -1, Now: at(fixtureSent.Add(24 * time.Hour))}
	if _, err := off.Verify(signed(fixtureSignature), body); err != nil {
		t.Errorf("tolerance off: %v", err)
	}
	// VerifyWebhook reads the real clock: a delivery signed now passes, the fixture of 2026-12-02 05:30 is stale by then or not yet due
	fresh := time.Now().Unix()
	if _, err := burnbox.VerifyWebhook(fixtureSecret, signed("t="+strconv.FormatInt(fresh, 10)+",v1="+sign(fixtureSecret, fresh, fixtureBody)), body); err != nil {
		t.Errorf("signed now: %v", err)
	}
}
