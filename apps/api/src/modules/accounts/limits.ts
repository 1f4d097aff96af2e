import { ApiMsg } from '@survey-bird/contracts';
import type { CounterStore } from '../../counters/index.js';
import { HttpError } from '../../http/errors.js';

/**
 * Who may try again, in the counters every API process shares. A team of 30 on one office Wi-Fi or
 * behind a carrier's NAT shares one IP, so sign-in counts only failures, and separately:
 * - per (IP, account): `max` failures, then that pair waits for the window;
 * - per account from anywhere: 3 x max (guessing spread over many IPs);
 * - per IP over any accounts: 10 x max (one IP trying many accounts; a team's typos stay far below).
 * A correct password never counts, and clears its (IP, account) failures.
 * Registration counts every attempt per e-mail, and per IP only for e-mails no one invited: a team
 * registering from its invitations is never held back by one another, mass sign-ups are.
 * The other public account routes count every attempt per IP and per e-mail, as before.
 */
export class AuthLimits {
  constructor(
    private readonly store: CounterStore,
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private loginKeys(ip: string, email: string): [string, number][] {
    return [
      [`login-fail:pair:${ip}|${email}`, this.max],
      [`login-fail:account:${email}`, this.max * 3],
      [`login-fail:ip:${ip}`, this.max * 10],
    ];
  }

  /** 429 when this (IP, account), the account or the IP has failed too often in the window. */
  async checkLogin(ip: string, email: string): Promise<void> {
    const keys = this.loginKeys(ip, email);
    const counts = await this.store.peek(keys.map(([k]) => k), this.windowMs);
    if (counts.some((n, i) => n >= keys[i]![1])) throw tooMany();
  }

  async loginFailed(ip: string, email: string): Promise<void> {
    await this.store.hit(this.loginKeys(ip, email).map(([k]) => k), this.windowMs);
  }

  async loginSucceeded(ip: string, email: string): Promise<void> {
    await this.store.reset([this.loginKeys(ip, email)[0]![0]]);
  }

  async register(ip: string, email: string, invited: boolean): Promise<void> {
    await this.attempt([`register:email:${email}`, ...(invited ? [] : [`register:uninvited-ip:${ip}`])]);
  }

  /** Every attempt counts (reset links, verification mails, password changes). */
  async attempt(keys: string[]): Promise<void> {
    const counts = await this.store.hit(keys, this.windowMs);
    if (counts.some((n) => n > this.max)) throw tooMany();
  }
}

const tooMany = () => new HttpError(429, ApiMsg.tooManyRequests);
