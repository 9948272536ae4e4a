package dev.kubeloop.webhook;

/**
 * Input a webhook cannot answer as asked, with the reason in words for the caller: a body that is
 * not the expected review (answered with HTTP 400), or a review about something this webhook does
 * not serve or an object that does not read (answered with HTTP 200 and a denial carrying code
 * 400, because the review itself is fine and the API server shows the message to the user).
 */
final class BadReview extends Exception {

    private static final long serialVersionUID = 1L;

    /** The request's uid when it was read before the failure, so the answer can carry it. */
    private final String uid;

    BadReview(String uid, String message) {
        super(message, null, false, false);
        this.uid = uid;
    }

    /** Null when the body never got as far as a uid: then the answer is an HTTP 400. */
    String uid() {
        return uid;
    }
}
