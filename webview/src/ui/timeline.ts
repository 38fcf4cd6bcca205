// The simulation's timeline under the graph: the report's one-line summary (what the request causes) and the policy,
// first/previous/play/next/last, a step slider, the current step's caption, Open Report and Close.

import { stepCaption, type PlaybackFrame } from '../model/playback';
import type { SimulateReport } from '../model/protocolTypes';
import { describeObject } from '../model/viewModel';
import { h } from './dom';

export interface TimelineActions {
  step(index: number): void;
  togglePlay(): void;
  openReport(): void;
  close(): void;
}

export class Timeline {
  readonly element: HTMLElement;
  private readonly title: HTMLElement;
  private readonly policy: HTMLElement;
  private readonly slider: HTMLInputElement;
  private readonly caption: HTMLElement;
  private readonly play: HTMLButtonElement;
  private frame: PlaybackFrame | undefined;

  constructor(actions: TimelineActions) {
    const button = (label: string, aria: string, onClick: () => void) => {
      const b = h('button', { type: 'button', 'aria-label': aria, title: aria }, label);
      b.addEventListener('click', onClick);
      return b;
    };
    this.title = h('span', { class: 'timeline-title' });
    this.policy = h('span', { class: 'timeline-policy' });
    this.slider = h('input', { type: 'range', min: 0, max: 0, value: 0, step: 1, 'aria-label': 'Simulation step' });
    this.slider.addEventListener('input', () => actions.step(Number(this.slider.value)));
    this.caption = h('div', { class: 'caption', 'aria-live': 'polite' });
    this.play = button('Play', 'Play', () => actions.togglePlay());
    this.element = h(
      'footer',
      { class: 'timeline', 'aria-label': 'Simulated deletion', hidden: true },
      h('div', { class: 'timeline-head' }, this.title, this.policy),
      h(
        'div',
        { class: 'controls' },
        button('«', 'First step', () => actions.step(0)),
        button('‹', 'Previous step', () => actions.step((this.frame?.index ?? 0) - 1)),
        this.play,
        button('›', 'Next step', () => actions.step((this.frame?.index ?? 0) + 1)),
        button('»', 'Last step', () => actions.step(this.frame?.total ?? 0)),
        this.slider,
        button('Open Report', 'Open the full Simulate Delete report', () => actions.openReport()),
        button('Close', 'Close the simulation', () => actions.close()),
      ),
      this.caption,
    );
  }

  update(report: SimulateReport | undefined, frame: PlaybackFrame | undefined, playing: boolean): void {
    this.frame = frame;
    this.element.hidden = !report || !frame;
    if (!report || !frame) return;
    const policy = report.policy === 'default' ? 'the API default policy' : `the ${report.policy} policy`;
    // The Report's one line (server/src/app/report.ts), the same every front end opens with.
    const summary = report.summary || `Deleting ${describeObject(report.target)}: ${report.title}`;
    if (this.title.textContent !== summary) this.title.textContent = summary;
    this.policy.textContent = `Simulated with ${policy}`;
    this.slider.max = String(frame.total);
    if (this.slider.value !== String(frame.index)) this.slider.value = String(frame.index);
    const caption = stepCaption(frame);
    this.slider.setAttribute('aria-valuetext', caption);
    this.caption.textContent = frame.index === frame.total && frame.stuck.size ? `${caption} · end: ${frame.stuck.size} stuck` : caption;
    this.play.textContent = playing ? 'Pause' : 'Play';
    this.play.setAttribute('aria-label', playing ? 'Pause' : 'Play');
    this.play.title = playing ? 'Pause' : 'Play';
  }
}
