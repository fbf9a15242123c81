package io.stockguard.chaos.demo;

import java.io.IOException;
import java.util.List;

/** Opens a page in the desktop's browser when there is one; says so when there is not. */
final class Browser {

    private Browser() {
    }

    static void open(String url) {
        for (List<String> command : List.of(List.of("xdg-open", url), List.of("open", url))) {
            try {
                Process process = new ProcessBuilder(command).redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                process.getOutputStream().close();
                return;
            } catch (IOException notThere) {
                // the next command, or none
            }
        }
        System.out.println("  (no browser to open here: visit " + url + ")");
    }
}
