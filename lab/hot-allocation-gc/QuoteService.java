// hot-allocation-gc: a request loop that renders each request's response by allocating many
// short-lived objects, in a heap that is small for its live data, so the garbage collector runs
// back to back: GC threads take CPU and the request threads stop in pauses.
//
//   java -Xmx64m ... QuoteService bad|fixed
//
// Both variants keep the same 40 MiB of long-lived reference data (an instrument table) and serve
// the same requests on two threads "request-worker-N", as fast as they can; each prints its
// requests per second to stderr every second.
// bad:   each request boxes 2000 prices into an ArrayList<Double>, turns each into a new String
//        and joins them: about 200 KiB of garbage per request.
// fixed: the prices rendered (to 4 decimals) into a per-thread, reused double[] and StringBuilder:
//        no allocation per request once warmed up.
// 4 s after "ready" (the JIT has compiled the loop; the collector is recording) the service writes its JIT symbol map,
// /tmp/perf-PID.map, with `jcmd PID Compiler.perfmap`, so perf can name compiled Java frames.
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

public class QuoteService {
    static final int N = 2000;
    static final long[][] INSTRUMENTS = new long[5120][];  // 5120 x 8 KiB = 40 MiB live
    static volatile long sink;

    static long renderAllocating(int request) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        List<Double> prices = new ArrayList<>();
        for (int i = 0; i < N; i++) prices.add(100 + r.nextDouble() * INSTRUMENTS[(request + i) % INSTRUMENTS.length][i % 1024]);
        List<String> parts = new ArrayList<>();
        for (Double p : prices) parts.add(p.toString());
        return String.join(",", parts).length();
    }

    static final ThreadLocal<StringBuilder> OUT = ThreadLocal.withInitial(() -> new StringBuilder(1 << 16));
    static final ThreadLocal<double[]> PRICES = ThreadLocal.withInitial(() -> new double[N]);

    static long renderReusing(int request) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        double[] prices = PRICES.get();
        StringBuilder out = OUT.get();
        out.setLength(0);
        for (int i = 0; i < N; i++) prices[i] = 100 + r.nextDouble() * INSTRUMENTS[(request + i) % INSTRUMENTS.length][i % 1024];
        for (int i = 0; i < N; i++) {
            if (i > 0) out.append(',');
            long scaled = Math.round(prices[i] * 10000);
            out.append(scaled / 10000).append('.');
            long frac = scaled % 10000;
            for (long d = 1000; d > 0; d /= 10) out.append((char) ('0' + frac / d % 10));
        }
        return out.length();
    }

    public static void main(String[] args) throws Exception {
        boolean fixed = args.length > 0 && args[0].equals("fixed");
        for (int i = 0; i < INSTRUMENTS.length; i++) {
            INSTRUMENTS[i] = new long[1024];
            for (int j = 0; j < 1024; j++) INSTRUMENTS[i][j] = 1 + (i * 31 + j) % 7;
        }
        Thread[] workers = new Thread[2];
        for (int w = 0; w < workers.length; w++) {
            String name = "request-worker-" + w;
            workers[w] = new Thread(() -> {
                long n = 0, last = System.nanoTime();
                for (int req = 0;; req++) {
                    sink += fixed ? renderReusing(req) : renderAllocating(req);
                    n++;
                    long now = System.nanoTime();
                    if (now - last >= 1_000_000_000L) {
                        System.err.println(name + ": " + n + " requests/s");
                        n = 0;
                        last = now;
                    }
                }
            }, name);
            workers[w].start();
        }
        Thread.sleep(3000);  // warm up: let the JIT compile the request loop
        System.out.println("ready");
        System.out.flush();
        long pid = ProcessHandle.current().pid();
        Thread.sleep(4000);  // inside the recording, before the collector turns perf's data into text
        new ProcessBuilder("jcmd", Long.toString(pid), "Compiler.perfmap").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start().waitFor();
        System.err.println("perf map written: /tmp/perf-" + pid + ".map");
        for (Thread t : workers) t.join();
    }
}
