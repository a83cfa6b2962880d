import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { Search } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import {
  Avatar,
  Badge,
  Button,
  Card,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
  Dialog,
  DialogContent,
  DialogFooter,
  DialogTrigger,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
  Input,
  Slider,
  Spinner,
  Switch,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  Textarea,
  Tooltip,
  TooltipProvider,
} from './index';
import './test-polyfills';

/** Every component at once, the way a settings screen would hold them. */
function Gallery() {
  return (
    <TooltipProvider>
      <main>
        <h1>Design system</h1>
        <Card>
          <CardHeader>
            <CardTitle>Ban Status</CardTitle>
            <CardDescription>Case ID 42</CardDescription>
          </CardHeader>
          <Badge tone="pending">Pending</Badge>
          <Badge tone="ok">Approved</Badge>
          <CardFooter>
            <Button variant="quiet">Cancel</Button>
            <Button variant="danger">Delete account</Button>
            <Button busy>Saving…</Button>
          </CardFooter>
        </Card>
        <Input label="First name" hint="As on your ID." error="First name is required." />
        <Input label="Search countries" hideLabel startIcon={<Search />} placeholder="Search for a country..." />
        <Textarea label="Appeal" />
        <Tabs defaultValue="general">
          <TabsList aria-label="Settings sections">
            <TabsTrigger value="general">General</TabsTrigger>
            <TabsTrigger value="security">Security</TabsTrigger>
          </TabsList>
          <TabsContent value="general">Account Settings</TabsContent>
          <TabsContent value="security">Security Settings</TabsContent>
        </Tabs>
        <Switch label="Two-factor authentication" description="Ask for a code when you sign in." />
        <Slider min={18} max={110} defaultValue={[18, 35]} thumbLabels={['Minimum age', 'Maximum age']} />
        <Avatar name="Ada Lovelace" />
        <Spinner label="Loading ban status" />
        <Tooltip content="Mute microphone">
          <Button iconOnly variant="ghost" aria-label="Mute">
            <svg aria-hidden="true" />
          </Button>
        </Tooltip>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="quiet">Account</Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuLabel>Hi, Ada</DropdownMenuLabel>
            <DropdownMenuItem>Settings</DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem tone="danger">Logout</DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
        <Dialog>
          <DialogTrigger asChild>
            <Button>Report</Button>
          </DialogTrigger>
          <DialogContent title="Report User" description="Tell us what happened.">
            <Input label="Reason" />
            <DialogFooter>
              <Button>Submit</Button>
            </DialogFooter>
          </DialogContent>
        </Dialog>
      </main>
    </TooltipProvider>
  );
}

/** WCAG A and AA rule failures; contrast is left to tokens.spec.ts because jsdom has no layout. */
async function violations(): Promise<string[]> {
  const result = await axe.run(document.body, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  return result.violations.map(
    (rule) => `${rule.impact}: ${rule.id} (${rule.nodes.map((node) => node.target).join(', ')})`,
  );
}

describe('accessibility (axe-core, WCAG 2.2 A/AA)', () => {
  it('finds nothing wrong with the components at rest', async () => {
    render(<Gallery />);

    expect(await violations()).toEqual([]);
  });

  it('finds nothing wrong with the dropdown menu open', async () => {
    const user = userEvent.setup();
    render(<Gallery />);
    await user.click(screen.getByRole('button', { name: 'Account' }));
    await screen.findByRole('menu');

    expect(await violations()).toEqual([]);
  });

  it('finds nothing wrong with the dialog open', async () => {
    const user = userEvent.setup();
    render(<Gallery />);
    await user.click(screen.getByRole('button', { name: 'Report' }));
    await screen.findByRole('dialog', { name: 'Report User' });

    expect(await violations()).toEqual([]);
  });
});
