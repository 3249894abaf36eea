package dev.zstdjava.bench.e2e;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.AffineTransform;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** Grouped bar charts drawn with Java2D and written as PNG (no chart library). */
final class Charts {
    private static final Color[] PALETTE = {
        new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
    };

    private Charts() {}

    /**
     * @param values    values[series][group]; NaN leaves a gap
     * @param reference a horizontal line at this value, or NaN
     * @param percent   label the axis in percent (values are fractions)
     */
    static void bars(Path file, String title, String yLabel, List<String> groups, List<String> series,
                     double[][] values, double reference, boolean percent) throws IOException {
        int left = 80;
        int right = 30;
        // groups fill at least a 1000-pixel-wide image; bars stay at most 40 pixels wide
        int groupWidth = Math.max(Math.max(70, series.size() * 14 + 20),
                Math.min(series.size() * 40 + 40, (1000 - left - right) / Math.max(1, groups.size())));
        int top = 60;
        int bottom = 130;
        int plotW = groups.size() * groupWidth;
        int width = Math.max(1000, left + plotW + right);
        int height = 520;
        int plotH = height - top - bottom;
        BufferedImage img = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);

            double max = Double.isNaN(reference) ? 0 : reference;
            double min = 0;
            for (double[] row : values) {
                for (double v : row) {
                    if (!Double.isNaN(v)) {
                        max = Math.max(max, v);
                        min = Math.min(min, v);
                    }
                }
            }
            double step = niceStep((max - min) / 6);
            max = Math.ceil(max / step) * step;
            min = Math.floor(min / step) * step;
            if (max <= min) {
                max = min + 1;
            }
            final double lo = min;
            final double hi = max;
            java.util.function.DoubleUnaryOperator y = v -> top + plotH - (v - lo) / (hi - lo) * plotH;

            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.drawString(title, left, 28);

            // grid and axis labels
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
            FontMetrics fm = g.getFontMetrics();
            for (double v = min; v <= max + step / 2; v += step) {
                int yy = (int) Math.round(y.applyAsDouble(v));
                g.setColor(new Color(0xe0e0e0));
                g.drawLine(left, yy, left + plotW, yy);
                g.setColor(Color.DARK_GRAY);
                String s = percent ? String.format(Locale.ROOT, "%.0f%%", v * 100) : String.format(Locale.ROOT, "%.2f", v);
                g.drawString(s, left - 6 - fm.stringWidth(s), yy + 4);
            }
            AffineTransform saved = g.getTransform();
            g.rotate(-Math.PI / 2);
            g.drawString(yLabel, -(top + plotH / 2 + fm.stringWidth(yLabel) / 2), 18);
            g.setTransform(saved);

            // bars
            int barW = Math.min(40, Math.max(4, (groupWidth - 16) / Math.max(1, series.size())));
            for (int gi = 0; gi < groups.size(); gi++) {
                int x0 = left + gi * groupWidth + 8;
                for (int si = 0; si < series.size(); si++) {
                    double v = values[si][gi];
                    if (Double.isNaN(v)) {
                        continue;
                    }
                    int y0 = (int) Math.round(y.applyAsDouble(Math.max(0, v)));
                    int y1 = (int) Math.round(y.applyAsDouble(Math.min(0, v)));
                    g.setColor(PALETTE[si % PALETTE.length]);
                    g.fillRect(x0 + si * barW, y0, barW - 1, Math.max(1, y1 - y0));
                    if (barW >= 28) { // room for the value above the bar
                        String s = percent ? String.format(Locale.ROOT, "%.0f%%", v * 100)
                                : String.format(Locale.ROOT, "%.2f", v);
                        g.setColor(Color.DARK_GRAY);
                        g.drawString(s, x0 + si * barW + (barW - 1 - fm.stringWidth(s)) / 2, y0 - 3);
                    }
                }
                // group label, rotated
                g.setColor(Color.BLACK);
                String label = groups.get(gi);
                saved = g.getTransform();
                g.translate(left + gi * groupWidth + groupWidth / 2.0 + 4, top + plotH + 8);
                g.rotate(Math.PI / 4);
                g.drawString(label, 0, 0);
                g.setTransform(saved);
            }
            g.setColor(Color.BLACK);
            g.drawLine(left, top, left, top + plotH);
            g.drawLine(left, (int) Math.round(y.applyAsDouble(0)), left + plotW, (int) Math.round(y.applyAsDouble(0)));
            if (!Double.isNaN(reference)) {
                g.setColor(Color.RED);
                g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {6, 4}, 0));
                int yy = (int) Math.round(y.applyAsDouble(reference));
                g.drawLine(left, yy, left + plotW, yy);
                g.setStroke(new BasicStroke(1));
            }

            // legend
            int lx = left;
            int ly = 42;
            for (int si = 0; si < series.size(); si++) {
                g.setColor(PALETTE[si % PALETTE.length]);
                g.fillRect(lx, ly - 9, 10, 10);
                g.setColor(Color.BLACK);
                g.drawString(series.get(si), lx + 14, ly);
                lx += fm.stringWidth(series.get(si)) + 30;
            }
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(img, "png", file.toFile())) {
            throw new IOException("no PNG writer in this JDK");
        }
    }

    private static double niceStep(double raw) {
        if (raw <= 0 || Double.isNaN(raw)) {
            return 0.1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / mag;
        double nice = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
        return nice * mag;
    }
}
