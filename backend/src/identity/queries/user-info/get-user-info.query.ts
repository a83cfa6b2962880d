import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { UserInfo } from '@serendip/proto';
import { Accounts } from '../../accounts/accounts.js';

export class GetUserInfo extends Query<UserInfo> {
  constructor(
    readonly userId: string,
    readonly now = new Date(),
  ) {
    super();
  }
}

/** spec 3 UserInfo: the signed-in user's own view, from the `users` read model. */
@QueryHandler(GetUserInfo)
export class GetUserInfoHandler implements IQueryHandler<GetUserInfo> {
  constructor(private readonly accounts: Accounts) {}

  execute({ userId, now }: GetUserInfo): Promise<UserInfo> {
    return this.accounts.userInfo(userId, now);
  }
}
