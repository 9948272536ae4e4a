package dev.kubeloop.acceptance.webpage;

/** The original's demo failure: thrown for a page whose html contains "error". */
public class ErrorSimulationException extends Exception {

    private static final long serialVersionUID = 1L;

    public ErrorSimulationException(String message) {
        super(message);
    }
}
