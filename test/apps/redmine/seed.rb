# Seeds a fresh Redmine for the connector tests: two users, one project, issues assigned to each.
# Run with `bin/rails runner`; prints one JSON line describing what it made.
require 'json'

Setting.login_required = '1'
Setting.default_language = 'en'
Setting.text_formatting = 'common_mark'

def person(login, first, last, password)
  user = User.find_or_initialize_by(login: login)
  user.firstname = first
  user.lastname = last
  user.mail = "#{login}@example.com"
  user.language = 'en'
  user.password = password
  user.password_confirmation = password
  user.must_change_passwd = false
  user.status = User::STATUS_ACTIVE
  user.save!
  user
end

alice = person('alice', 'Alice', 'Archer', 'secret-alice')
bob = person('bob', 'Bob', 'Baker', 'secret-bob')

project = Project.find_by(identifier: 'demo') || Project.new(identifier: 'demo')
project.name = 'Demo project'
project.is_public = false
project.trackers = Tracker.all
project.enabled_module_names = %w[issue_tracking wiki]
project.save!

role = Role.find_by!(name: 'Developer')
[alice, bob].each do |user|
  next if Member.exists?(project: project, user: user)
  Member.create!(project: project, user: user, roles: [role])
end

bug = Tracker.find_by!(name: 'Bug')
feature = Tracker.find_by!(name: 'Feature')
open_status = IssueStatus.find_by!(name: 'New')
progress = IssueStatus.find_by!(name: 'In Progress')
closed = IssueStatus.find_by!(name: 'Closed')
normal = IssuePriority.find_by!(name: 'Normal')
high = IssuePriority.find_by!(name: 'High')

seeds = [
  ['Export to CSV drops accented names', bug, progress, high, alice, 'Exporting the member list loses é and ü.'],
  ['Add a dark theme', feature, open_status, normal, alice, 'Users asked for a theme that follows the system.'],
  ['Timeouts on the upload page', bug, open_status, high, alice, 'Uploads over 20 MB time out after 30 s.'],
  ['Old login page still reachable', bug, closed, normal, alice, 'Fixed by removing the legacy route.'],
  ['Write the release checklist', feature, open_status, normal, bob, 'One page, kept in the wiki.'],
]
made = seeds.map do |subject, tracker, status, priority, assignee, description|
  issue = Issue.find_by(project: project, subject: subject) || Issue.new(project: project, subject: subject)
  issue.tracker = tracker
  issue.author = bob
  issue.status = status
  issue.priority = priority
  issue.assigned_to = assignee
  issue.description = description
  issue.save!
  { id: issue.id, subject: subject, assignee: assignee.login, status: status.name }
end

puts "SEEDED #{JSON.generate(issues: made)}"
