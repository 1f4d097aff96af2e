import type { FastifyInstance } from 'fastify';
import { ApiMsg, Msg } from '@survey-bird/contracts';
import { pageOf, pagingReply } from '../../http/paging.js';
import { HttpError } from '../../http/errors.js';
import { route } from '../../http/route.js';
import { AuthLimits } from './limits.js';

export async function accountRoutes(app: FastifyInstance): Promise<void> {
  const { accounts } = app.services;
  const limits = new AuthLimits(app.counters, app.config.rateLimit.max, app.config.rateLimit.windowMs);
  const limit = (ip: string, email?: string) => limits.attempt([`ip:${ip}`, ...(email ? [`email:${email}`] : [])]);

  route(app, 'login', async (req) => {
    const { email, password } = req.body;
    await limits.checkLogin(req.ip, email);
    try {
      const reply = await accounts.login(email, password, req.headers['user-agent'] ?? '', req.ip);
      await limits.loginSucceeded(req.ip, email);
      return reply;
    } catch (err) {
      if (err instanceof HttpError && err.statusCode === 401) await limits.loginFailed(req.ip, email);
      throw err;
    }
  });

  route(app, 'register', async (req) => {
    const { email, password, invite } = req.body;
    const invited = await accounts.hasValidInvitation(email, invite);
    await limits.register(req.ip, email, invited);
    await accounts.register(email, password, invited, req.body.language);
    return { msg: Msg.accountCreated };
  });

  route(app, 'confirmEmail', async (req) => {
    await accounts.confirmEmail(req.params.id);
    return { msg: ApiMsg.accountVerified };
  });

  route(app, 'currentUser', async (req) => ({ user: accounts.current(req.auth.user, req.auth.actor) }));

  route(app, 'setLanguage', async (req) => {
    await accounts.setLanguage(req.auth.user, req.body.language);
    return { msg: ApiMsg.languageSaved, language: req.body.language };
  });

  route(app, 'sendRefreshToken', async (req) => {
    await limit(req.ip, req.body.email);
    const { email } = req.body;
    app.mailer.later(() => accounts.sendResetLink(email));
    return { msg: ApiMsg.resetLinkSent };
  });

  route(app, 'resetPassword', async (req) => {
    await limit(req.ip);
    await accounts.resetPassword(req.body.resetToken, req.body.newPassword);
    return { msg: ApiMsg.passwordReset };
  });

  route(app, 'resendVerification', async (req) => {
    await limit(req.ip, req.body.email ?? req.body.id);
    const by = req.body;
    app.mailer.later(() => accounts.resendVerification(by));
    return { msg: ApiMsg.verificationResent };
  });

  route(app, 'changePassword', async (req) => {
    await limit(req.ip, req.auth.user.email);
    const { oldPassword, newPassword, signOutOthers } = req.body;
    await accounts.changePassword(req.auth.user, req.auth.sessionId, oldPassword, newPassword, signOutOthers);
    return { msg: ApiMsg.passwordChanged };
  });

  route(app, 'signOut', async (req) => {
    await accounts.signOut(req.auth.sessionId);
    return { msg: Msg.accountSignedOut };
  });

  route(app, 'signOutAll', async (req) => {
    await accounts.signOutAll(req.auth.user.id);
    return { msg: Msg.allSessionsSignedOut };
  });

  route(app, 'allUsers', async (req) => {
    const page = pageOf(req.query.page);
    const { users, total } = await accounts.listUsers(page, req.query.searchQuery);
    return { users, ...pagingReply(page, total) };
  });
}
