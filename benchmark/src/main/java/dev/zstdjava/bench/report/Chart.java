package dev.zstdjava.bench.report;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** A grouped bar chart written as PNG with the JDK's headless 2D API: groups on x, one bar per series, error whiskers. */
final class Chart {
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
            new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
            new Color(0xbcbd22), new Color(0x17becf)};

    private Chart() {
    }

    /**
     * @param values  [series][group], NaN = no bar
     * @param errors  [series][group] half-widths, NaN = none
     * @param refLine a horizontal dashed line at this value (NaN = none), labelled {@code refLabel}
     */
    static void bars(Path file, String title, String yLabel, List<String> groups, List<String> series,
                     double[][] values, double[][] errors, double refLine, String refLabel) throws IOException {
        int groupW = Math.max(60, series.size() * 14 + 20);
        int left = 70, right = 20, top = 50, bottom = 70 + 18 * ((series.size() + 2) / 3);
        int w = Math.max(640, left + right + groupW * groups.size());
        int h = 420 + bottom - 70;
        int plotH = h - top - bottom;
        // the axis follows the bars (whiskers taller than twice the largest bar are cut at the top)
        double maxBar = Double.isNaN(refLine) ? 0 : refLine;
        double maxWhisker = 0;
        for (int s = 0; s < values.length; s++) {
            for (int g = 0; g < values[s].length; g++) {
                double v = values[s][g];
                if (!Double.isNaN(v)) {
                    maxBar = Math.max(maxBar, v);
                    maxWhisker = Math.max(maxWhisker, v + (Double.isNaN(errors[s][g]) ? 0 : errors[s][g]));
                }
            }
        }
        double max = Math.min(Math.max(maxBar, maxWhisker), 2 * maxBar);
        max = niceCeil(max <= 0 ? 1 : max * 1.05);

        BufferedImage img = new BufferedImage(w, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g2 = img.createGraphics();
        g2.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g2.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g2.setColor(Color.WHITE);
        g2.fillRect(0, 0, w, h);
        g2.setColor(Color.BLACK);
        g2.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g2.drawString(title, left, 28);
        g2.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        FontMetrics fm = g2.getFontMetrics();

        // axes and grid
        int ticks = 5;
        for (int t = 0; t <= ticks; t++) {
            double v = max * t / ticks;
            int y = top + plotH - (int) Math.round(plotH * v / max);
            g2.setColor(new Color(0xe0e0e0));
            g2.drawLine(left, y, w - right, y);
            g2.setColor(Color.DARK_GRAY);
            String lbl = fmt(v);
            g2.drawString(lbl, left - 6 - fm.stringWidth(lbl), y + 4);
        }
        g2.setColor(Color.BLACK);
        g2.drawLine(left, top, left, top + plotH);
        g2.drawLine(left, top + plotH, w - right, top + plotH);
        Graphics2D rot = (Graphics2D) g2.create();
        rot.rotate(-Math.PI / 2);
        rot.drawString(yLabel, -(top + plotH / 2 + fm.stringWidth(yLabel) / 2), 16);
        rot.dispose();

        // bars
        int barW = Math.max(4, (groupW - 16) / Math.max(1, series.size()));
        for (int gi = 0; gi < groups.size(); gi++) {
            int gx = left + gi * groupW + 8;
            for (int s = 0; s < series.size(); s++) {
                double v = values[s][gi];
                if (Double.isNaN(v)) {
                    continue;
                }
                int bh = (int) Math.round(plotH * v / max);
                int x = gx + s * barW;
                g2.setColor(PALETTE[s % PALETTE.length]);
                g2.fillRect(x, top + plotH - bh, barW - 2, bh);
                double e = errors[s][gi];
                if (!Double.isNaN(e) && e > 0) {
                    g2.setColor(Color.BLACK);
                    int y1 = top + plotH - (int) Math.round(plotH * Math.min(max, v + e) / max);
                    int y2 = top + plotH - (int) Math.round(plotH * Math.max(0, v - e) / max);
                    int cx = x + (barW - 2) / 2;
                    g2.drawLine(cx, y1, cx, y2);
                    g2.drawLine(cx - 2, y1, cx + 2, y1);
                    g2.drawLine(cx - 2, y2, cx + 2, y2);
                }
            }
            g2.setColor(Color.BLACK);
            String lbl = groups.get(gi);
            g2.drawString(lbl, gx + (groupW - 16) / 2 - fm.stringWidth(lbl) / 2, top + plotH + 16);
        }
        if (!Double.isNaN(refLine)) {
            int y = top + plotH - (int) Math.round(plotH * refLine / max);
            g2.setColor(Color.BLACK);
            g2.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[]{6f, 4f}, 0f));
            g2.drawLine(left, y, w - right, y);
            g2.setStroke(new BasicStroke(1f));
            g2.drawString(refLabel, w - right - fm.stringWidth(refLabel) - 4, y - 4);
        }

        // legend, three columns
        int ly = top + plotH + 36;
        int colW = (w - left - right) / 3;
        for (int s = 0; s < series.size(); s++) {
            int x = left + (s % 3) * colW;
            int y = ly + (s / 3) * 18;
            g2.setColor(PALETTE[s % PALETTE.length]);
            g2.fillRect(x, y - 10, 12, 12);
            g2.setColor(Color.BLACK);
            g2.drawString(series.get(s), x + 18, y);
        }
        g2.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    private static double niceCeil(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[]{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String fmt(double v) {
        if (v == 0) {
            return "0";
        }
        if (Math.abs(v) >= 100) {
            return String.format("%.0f", v);
        }
        if (Math.abs(v) >= 10) {
            return String.format("%.1f", v);
        }
        return String.format("%.2f", v);
    }
}
