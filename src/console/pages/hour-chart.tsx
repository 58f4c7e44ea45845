// Punches per hour as bars (uPlot: a small, fast canvas chart library).
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

/** `counts`: punches in each hour of the day, hour 0 first (24 numbers, counted by the service). */
export function HourChart({ counts }: { counts: number[] }) {
  const box = useRef<HTMLDivElement>(null);
  const hours = Array.from({ length: 24 }, (_, h) => h);
  useEffect(() => {
    if (!box.current) return;
    const width = Math.max(280, box.current.clientWidth);
    const chart = new uPlot(
      {
        width,
        height: 180,
        legend: { show: false },
        scales: { x: { time: false } },
        // Whole hours and whole punches only.
        axes: [{ incrs: [1, 2, 3, 6], values: (_u, ticks) => ticks.map((t) => `${t}h`) }, { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000] }],
        series: [
          {},
          { label: 'Punches', fill: 'rgba(21, 101, 192, 0.35)', stroke: '#1565c0', points: { show: false }, paths: uPlot.paths.bars!({ size: [0.8, 40] }) },
        ],
      },
      [hours, counts],
      box.current,
    );
    // Follows the card's width (a phone turned, a window resized).
    const element = box.current;
    const resized = new ResizeObserver(() => chart.setSize({ width: Math.max(280, element.clientWidth), height: 180 }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      chart.destroy();
    };
  }, [counts.join(',')]);
  const total = counts.reduce((a, b) => a + b, 0);
  return (
    <figure class="chart">
      <div ref={box} role="img" aria-label={`Punches per hour today: ${total} in all`} />
      <figcaption class="sr-only">
        {hours
          .filter((h) => counts[h]! > 0)
          .map((h) => `${h}h: ${counts[h]}`)
          .join(', ') || 'none'}
      </figcaption>
    </figure>
  );
}
