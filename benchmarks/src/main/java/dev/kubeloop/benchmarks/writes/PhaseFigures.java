package dev.kubeloop.benchmarks.writes;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The figures of one phase of one round (a row per figure, in the order the table shows them):
 * the operator's own counts from two {@link OperatorMetrics} snapshots, and the API server's
 * count of the same span from the audit log, when there is one.
 */
final class PhaseFigures {

    /** The status subresource of the primary: what "status writes" counts. */
    private static final String STATUS = "websites/status";
    /** The sample's per-namespace index, a write hot spot by design before issue 17. */
    private static final String INDEX = "configmaps website-index";

    private final String phase;
    private final Map<String, Double> rows = new LinkedHashMap<>();

    private PhaseFigures(String phase) {
        this.phase = phase;
    }

    String phase() {
        return phase;
    }

    Map<String, Double> rows() {
        return rows;
    }

    /**
     * @param units objects created or spec changes made in the phase; the "per" figures divide by it
     * @param unit what a unit is, for the row names ("object", "change")
     * @param audit the requests the server logged over the phase; null without an audit log
     * @param elapsedSeconds first request of the phase until the last Website converged; NaN if not timed
     * @param issuedSeconds first request until the harness's last was accepted; NaN if not timed
     */
    static PhaseFigures measure(String phase, int units, String unit, OperatorMetrics before, OperatorMetrics after,
            List<AuditLog.Request> audit, double elapsedSeconds, double issuedSeconds) {
        PhaseFigures figures = new PhaseFigures(phase);
        Map<String, Double> rows = figures.rows;
        rows.put("elapsed s (until all converged)", elapsedSeconds);
        rows.put(unit + "s issued in s", issuedSeconds);
        double reconciles = after.reconciles() - before.reconciles();
        rows.put("reconciles", reconciles);
        rows.put("reconciles per " + unit, reconciles / units);
        Map<String, Double> resultsBefore = before.reconcilesByResult();
        after.reconcilesByResult().forEach((result, count) -> {
            double delta = count - resultsBefore.getOrDefault(result, 0.0);
            if (delta != 0) {
                rows.put("reconciles result=" + result, delta);
            }
        });
        double conflicts = after.conflicts() - (Double.isNaN(before.conflicts()) ? 0 : before.conflicts());
        rows.put("conflicts (operator's count)", conflicts);
        rows.put("conflicts % of reconciles", 100 * conflicts / reconciles);
        if (audit != null) {
            figures.auditRows(units, unit, audit);
        }
        rows.put("operator CPU s", after.cpuSeconds() - before.cpuSeconds());
        rows.putAll(after.extrasSince(before));
        return figures;
    }

    /** The demo's figures: counted from the operator's start, nothing timed, no audit log. */
    static PhaseFigures demo(String phase, OperatorMetrics after) {
        PhaseFigures figures = new PhaseFigures(phase);
        double reconciles = after.reconciles();
        figures.rows.put("reconciles", reconciles);
        after.reconcilesByResult().forEach((result, count) -> {
            if (count != 0) {
                figures.rows.put("reconciles result=" + result, count);
            }
        });
        figures.rows.put("conflicts (operator's count)", after.conflicts());
        figures.rows.put("conflicts % of reconciles", 100 * after.conflicts() / reconciles);
        figures.rows.put("operator CPU s (whole run)", after.cpuSeconds());
        return figures;
    }

    /**
     * What else the machine did: the load before the round's operator started (what the harness
     * waited for) and at the phase's start, the CPU seconds the machine was busy over the phase and
     * how many of them went to other work than the operator, the API server, etcd and the harness.
     */
    PhaseFigures machine(double loadBeforeRound, double loadAtPhaseStart, MachineCpu before, MachineCpu after) {
        rows.put("machine: 1-min load before the round", loadBeforeRound);
        rows.put("machine: 1-min load at the phase's start", loadAtPhaseStart);
        rows.put("machine: CPU s busy over the phase", after.busySince(before));
        rows.put("machine: of which other work, CPU s", after.othersSince(before));
        return this;
    }

    private void auditRows(int units, String unit, List<AuditLog.Request> audit) {
        Predicate<AuditLog.Request> byOperator = r -> r.userAgent().startsWith(SampleOperator.USER_AGENT);
        List<AuditLog.Request> operator = audit.stream().filter(byOperator).toList();
        List<AuditLog.Request> writes = operator.stream().filter(AuditLog.Request::isWrite).toList();
        List<AuditLog.Request> conflicts = operator.stream().filter(r -> r.code() == 409).toList();
        rows.put("audit: operator 409s", (double) conflicts.size());
        countBy(conflicts).forEach((what, count) -> rows.put("audit: operator 409s " + what, count));
        rows.put("audit: operator writes", (double) writes.size());
        rows.put("audit: operator writes per " + unit, (double) writes.size() / units);
        countBy(writes).forEach((what, count) -> rows.put("audit: operator writes " + what, count));
        long statusWrites = writes.stream().filter(r -> r.target().equals(STATUS)).count();
        long statusAccepted = writes.stream().filter(r -> r.target().equals(STATUS) && r.code() < 300).count();
        Map<String, Double> perObject = new TreeMap<>();
        writes.stream().filter(r -> r.name() != null && !r.resource().equals("events"))
                .forEach(r -> perObject.merge(r.resource() + " " + r.name(), 1.0, Double::sum));
        rows.put("audit: writes to " + INDEX, perObject.getOrDefault(INDEX, 0.0));
        rows.put("audit: 409s on " + INDEX, (double) conflicts.stream()
                .filter(r -> INDEX.equals(r.resource() + " " + r.name())).count());
        rows.put("audit: most writes to one object (events aside)",
                perObject.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
        rows.put("audit: status writes per " + unit, (double) statusWrites / units);
        rows.put("audit: status writes accepted per " + unit, (double) statusAccepted / units);
        rows.put("audit: operator requests, all verbs", (double) operator.size());
        rows.put("audit: harness writes", (double) audit.stream()
                .filter(r -> r.userAgent().startsWith(WebsiteFleet.USER_AGENT) && r.isWrite()).count());
    }

    /** Requests by "verb resource[/subresource]", sorted. */
    private static Map<String, Double> countBy(List<AuditLog.Request> requests) {
        Map<String, Double> counts = new TreeMap<>();
        for (AuditLog.Request request : requests) {
            counts.merge(request.verb() + " " + request.target(), 1.0, Double::sum);
        }
        return counts;
    }
}
