// Package junit renders a report v1 (scenario.Report) as JUnit XML for CI test reporters:
// GitHub (dorny/test-reporter, mikepenz/action-junit-report), GitLab
// (artifacts:reports:junit) and Jenkins (junit plugin).
//
// It owns the mapping from report v1 to the de-facto "Jenkins/Ant JUnit" schema (the
// windyroad/JUnit-Schema JUnit.xsd, plus the <skipped/> and per-testcase <system-out>
// extensions every one of those tools reads):
//
//   - <testsuites name="fastbrowser"> holds the run totals;
//   - one <testsuite> per scenario file, in the order files first appear in the report, named
//     by the file path as the report gives it;
//   - one <testcase> per scenario, named by the scenario id, with file="…" (the scenario file
//     relative to the working directory: GitLab shows and links it) and a <system-out> that
//     starts with the scenario's description (what Jenkins and GitLab show for a test);
//   - "failed" becomes <failure>, "error" and "interrupted" (and any unknown status, as
//     Report.Count does) become <error>, "skipped" becomes <skipped message="skipReason"/>,
//     "passed" and "flaky" have none of them;
//   - a scenario that ran more than once (run --retries) is written as Maven Surefire writes
//     reruns (surefire-test-report-3.0.xsd): its result describes the last attempt, and each
//     earlier attempt is a <flakyFailure>/<flakyError> (flaky: a pass on a retry) or a
//     <rerunFailure>/<rerunError> (never passed), by that attempt's status, with the detail
//     in <stackTrace>.
//
// Classname rule: the scenario file path is cleaned (path.Clean, so "./" and "//" go away),
// a leading "/" is dropped, then every "." becomes "_" and every "/" becomes ".". So
// "scenarios/quickstart/home.json" is "scenarios.quickstart.home_json": directories read as
// packages and the file as the class, and the extension cannot be mistaken for a package.
//
// Every text and attribute is stripped of the characters XML 1.0 forbids before encoding
// (messages may carry page-derived text), and operation "result" payloads are never written:
// a CI report is often public, a result may hold page content.
package junit
