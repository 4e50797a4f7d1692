// Package burnbox is a client for BurnBox, the self-hosted disposable-inbox service, for Go
// tests and tools: create and delete inboxes, list and read their mail, wait on the server for
// an email, its one-time code or its link, and verify the signature of a webhook delivery.
//
// Every call that reaches the server takes a [context.Context]; cancelling it ends the call. An
// answer other than 2xx is an [*Error] carrying the API's code ("not_found", "validation_error",
// "rate_limited", …), to be read with [errors.As]:
//
//	var apiErr *burnbox.Error
//	if errors.As(err, &apiErr) && apiErr.Code == burnbox.CodeNotFound { … }
//
// The waits ([Client.Wait], [Client.WaitForEmail], [Client.WaitForCode], [Client.WaitForLink])
// are one long-polling request each (GET /inboxes/{id}/emails/wait): the server answers as soon
// as the mail is in, and mail that arrived before the call counts.
//
// For tests, package burnbox-go/burnboxtest gives a fresh inbox that is deleted when the test
// ends.
package burnbox
