import { ShieldCheck, UserRound, UserRoundCog } from 'lucide-react';
import type { RefObject } from 'react';
import { useAppSelector } from '../../app/hooks';
import { Dialog, DialogContent } from '../../ui/Dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/Tabs';
import { selectCurrentUser } from '../auth/session.selectors';
import { type AccountTab, isAccountTab } from './account-tabs';
import { GeneralTab } from './GeneralTab';
import { ProfileTab } from './ProfileTab';
import { SecurityTab } from './SecurityTab';
import './account.css';

export interface AccountSettingsDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  tab: AccountTab;
  onTabChange: (tab: AccountTab) => void;
  /** Where focus goes back when the dialog closes (it has no trigger of its own when opened by a deep link). */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * spec 2 "Account settings dialog": General, Profile and Security tabs. The ui Dialog closes on outside click, Escape
 * or the close button and locks page scroll while open.
 */
export function AccountSettingsDialog({
  open,
  onOpenChange,
  tab,
  onTabChange,
  returnFocusTo,
}: AccountSettingsDialogProps) {
  const user = useAppSelector(selectCurrentUser);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Settings"
        size="lg"
        closeLabel="Close settings"
        className="account-dialog"
        onCloseAutoFocus={(event) => {
          if (!returnFocusTo?.current) return;
          event.preventDefault();
          returnFocusTo.current.focus();
        }}
      >
        {user && (
          <Tabs value={tab} onValueChange={(value) => isAccountTab(value) && onTabChange(value)}>
            <TabsList aria-label="Settings sections">
              <TabsTrigger value="general">
                <UserRoundCog aria-hidden="true" focusable="false" />
                General
              </TabsTrigger>
              <TabsTrigger value="profile">
                <UserRound aria-hidden="true" focusable="false" />
                Profile
              </TabsTrigger>
              <TabsTrigger value="security">
                <ShieldCheck aria-hidden="true" focusable="false" />
                Security
              </TabsTrigger>
            </TabsList>
            <TabsContent value="general">
              <GeneralTab user={user} />
            </TabsContent>
            <TabsContent value="profile">
              <ProfileTab />
            </TabsContent>
            <TabsContent value="security">
              <SecurityTab user={user} />
            </TabsContent>
          </Tabs>
        )}
      </DialogContent>
    </Dialog>
  );
}
