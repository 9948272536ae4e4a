package dev.kubeloop.api;

/**
 * Thrown from a reconcile when retrying cannot help (the object's spec is invalid, say): the error
 * is recorded (log, metrics, {@code controller_runtime_terminal_reconcile_errors_total}) and the
 * object is not retried until it changes. Report the problem on the object too (a status
 * condition and a Warning event), since that is where its owner will look.
 */
public class TerminalException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TerminalException(String message) {
        super(message);
    }

    public TerminalException(String message, Throwable cause) {
        super(message, cause);
    }
}
