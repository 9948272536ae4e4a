package dev.kubeloop.maven;

/** What a user asked for cannot be scaffolded; the message names the property and what to do. */
final class ScaffoldException extends Exception {

    private static final long serialVersionUID = 1L;

    ScaffoldException(String message) {
        super(message);
    }
}
